// Machine descriptions: the bundled files load with the values they document, overrides apply, and every
// kind of bad file is an error naming the file, line and key.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "machine_models/machine_loader.hpp"
#include "machine_models/machine_writer.hpp"

namespace rr::machine {
namespace {

const std::string kMachines = RR_SOURCE_DIR "/data/machines/";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replaces the first occurrence of `from` in titan.toml and parses the result.
core::Expected<MachineModel> titan_with(const std::string& from, const std::string& to) {
  std::string text = read(kMachines + "titan.toml");
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  return parse_machine(text, "edited.toml");
}

TEST(MachineLoader, TitanHasTheDocumentedValues) {
  auto m = load_machine(kMachines + "titan.toml");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name, "titan");
  EXPECT_EQ(m->processor(core::ProcessorKind::gpu).count, 1u);
  EXPECT_EQ(m->processor(core::ProcessorKind::cpu).count, 12u);
  EXPECT_EQ(m->processor(core::ProcessorKind::utility).count, 2u);
  EXPECT_EQ(m->network_latency_ns, 2500);
  EXPECT_EQ(m->runtime.task_launch_ns, 4000);
  EXPECT_TRUE(m->wait_frees_processor);
  EXPECT_EQ(m->issue_point, IssuePoint::interpolate);
  const CopyPath* remote_fb = m->path(core::MemoryKind::framebuffer, core::MemoryKind::framebuffer, true);
  ASSERT_NE(remote_fb, nullptr);
  ASSERT_EQ(remote_fb->hops.size(), 3u);
  EXPECT_EQ(m->channels[remote_fb->hops[0]].name, "pcie_d2h");
  EXPECT_EQ(m->channels[remote_fb->hops[1]].name, "nic");
  EXPECT_EQ(m->channels[remote_fb->hops[2]].name, "pcie_h2d");
  EXPECT_TRUE(m->channels[remote_fb->hops[2]].destination_side);
  EXPECT_EQ(m->path(core::MemoryKind::system, core::MemoryKind::system, false)->hops.size(), 1u);
  EXPECT_EQ(m->path(core::MemoryKind::l1_cache, core::MemoryKind::system, false), nullptr);
}

TEST(MachineLoader, EveryBundledMachineLoads) {
  for (const char* name : {"titan.toml", "titan_fastgpu.toml", "modern_multigpu.toml"}) {
    auto m = load_machine(kMachines + name);
    EXPECT_TRUE(m.ok()) << name << ": " << (m.ok() ? "" : m.error().to_string());
  }
  auto fast = load_machine(kMachines + "titan_fastgpu.toml");
  EXPECT_DOUBLE_EQ(fast->processor(core::ProcessorKind::gpu).speed, 4.0);
}

TEST(MachineLoader, PricingScalesBusyTimeAndTransfers) {
  auto m = parse_machine(read(kMachines + "titan.toml"), "titan", {"processors.gpu.speed=4",
                                                                    "processors.gpu.function_speed.17=2.0"});
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->scale_busy(core::ProcessorKind::gpu, 5, 1000), 250);
  EXPECT_EQ(m->scale_busy(core::ProcessorKind::gpu, 17, 1000), 125);
  EXPECT_EQ(m->scale_busy(core::ProcessorKind::cpu, 17, 1000), 1000);
  const Channel& nic = m->channels[m->path(core::MemoryKind::system, core::MemoryKind::system, true)->hops[0]];
  EXPECT_EQ(m->transfer_ns(nic, 6000), 1800 + 1000);  // 6 GB/s = 6 bytes/ns
}

TEST(MachineLoader, OverridesReplaceValuesAndBareWordsAreStrings) {
  auto m = parse_machine(read(kMachines + "titan.toml"), "titan",
                         {"network.latency_ns=100", "runtime.issue_point=start", "runtime.wait_frees_processor=false"});
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->network_latency_ns, 100);
  EXPECT_EQ(m->issue_point, IssuePoint::start);
  EXPECT_FALSE(m->wait_frees_processor);
}

TEST(MachineLoader, NodeCoresAreOptionalSetAndWrittenBack) {
  auto plain = parse_machine(read(kMachines + "titan.toml"), "titan");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->node.cores, 0u);  // absent: a core per thread
  EXPECT_EQ(to_toml(*plain, "").find("[node]"), std::string::npos);
  auto four = parse_machine(read(kMachines + "titan.toml"), "titan", {"node.cores=4"});
  ASSERT_TRUE(four.ok()) << four.error().to_string();
  EXPECT_EQ(four->node.cores, 4u);
  auto again = parse_machine(to_toml(*four, ""), "written");
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  EXPECT_EQ(again->node.cores, 4u);
  for (const char* bad : {"node.cores=-1", "node.cores=65537", "node.cores=1.5", "node.threads=2"}) {
    auto m = parse_machine(read(kMachines + "titan.toml"), "titan", {bad});
    EXPECT_FALSE(m.ok()) << bad;
  }
}

// The start-ups a log measured are a list of lengths; anything else is refused, naming the key.
TEST(MachineLoader, MeasuredStartUpsAreAListOfLengths) {
  auto listed = parse_machine(read(kMachines + "titan.toml"), "titan", {"runtime.processor_starts_ns=[5, 0, 7]"});
  ASSERT_TRUE(listed.ok()) << listed.error().to_string();
  EXPECT_EQ(listed->runtime.processor_starts_ns, (std::vector<TimeNs>{5, 0, 7}));
  EXPECT_TRUE(listed->runtime.starts_up());
  EXPECT_EQ(listed->runtime.start_up_ns(1), 0);
  EXPECT_EQ(listed->runtime.start_up_ns(3), 0);  // past the list: processor_start_ns
  auto none = parse_machine(read(kMachines + "titan.toml"), "titan", {"runtime.processor_starts_ns=[0, 0]"});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->runtime.starts_up());
  for (const char* bad : {"runtime.processor_starts_ns=5", "runtime.processor_starts_ns=[-1]",
                          "runtime.processor_starts_ns=[1.5]", "runtime.processor_starts_ns=[\"a\"]"}) {
    auto m = parse_machine(read(kMachines + "titan.toml"), "titan", {bad});
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_NE(m.error().to_string().find("runtime.processor_starts_ns"), std::string::npos) << m.error().to_string();
  }
}

TEST(MachineLoader, UnknownKeyNamesFileLineAndKey) {
  auto bad = titan_with("count = 12", "count = 12\nsped = 2.0");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where.file, "edited.toml");
  EXPECT_GT(bad.error().where.line, 0u);
  EXPECT_NE(bad.error().message.find("unknown key 'processors.cpu.sped'"), std::string::npos) << bad.error().message;
}

TEST(MachineLoader, UnknownOverrideKeyIsBlamedOnTheKeyWithTheNearestOne) {
  auto bad = parse_machine(read(kMachines + "titan.toml"), "titan.toml", {"processors.cpu.sped=2"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where.file, "--set");  // not the machine file, which has no such line
  EXPECT_EQ(bad.error().where.line, 0u);
  EXPECT_NE(bad.error().message.find("unknown key 'processors.cpu.sped' (did you mean 'processors.cpu.speed'?)"),
            std::string::npos)
      << bad.error().message;
  auto in_file = titan_with("count = 12", "count = 12\nsped = 2.0");
  ASSERT_FALSE(in_file.ok());
  EXPECT_NE(in_file.error().message.find("did you mean 'processors.cpu.speed'?"), std::string::npos);
  auto far = parse_machine(read(kMachines + "titan.toml"), "titan.toml", {"network.bandwidth=2"});
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().message.find("did you mean"), std::string::npos) << far.error().message;
}

TEST(MachineLoader, WrongTypeIsAnError) {
  auto bad = titan_with("count = 12", "count = \"twelve\"");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'processors.cpu.count' must be an integer"), std::string::npos);
}

TEST(MachineLoader, NegativeBandwidthIsAnErrorOnItsLine) {
  std::string text = read(kMachines + "titan.toml");
  auto bad = titan_with("bandwidth_gbs = 6.0", "bandwidth_gbs = -6.0");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'channels.nic.bandwidth_gbs' must be a finite number in [1e-06, 1e+06], not -6"), std::string::npos)
      << bad.error().message;
  // The line is the line of the bad value in the file.
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.find("bandwidth_gbs = 6.0"); ++i) line += text[i] == '\n';
  EXPECT_EQ(bad.error().where.line, line);
}

TEST(MachineLoader, MissingSectionIsAnError) {
  auto bad = titan_with("[network]\nlatency_ns = 2500", "");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("missing section [network]"), std::string::npos) << bad.error().message;
}

TEST(MachineLoader, UnknownChannelAndMemoryKindAreErrors) {
  auto channel = titan_with("hops = [\"fb_copy\"]", "hops = [\"warp_drive\"]");
  ASSERT_FALSE(channel.ok());
  EXPECT_NE(channel.error().message.find("no channel named \"warp_drive\""), std::string::npos);
  auto memory = titan_with("dst = \"framebuffer\"", "dst = \"holographic\"");
  ASSERT_FALSE(memory.ok());
  EXPECT_NE(memory.error().message.find("unknown memory kind \"holographic\""), std::string::npos);
}

TEST(MachineLoader, ZeroLanesAndBadIssuePointAreErrors) {
  auto lanes = titan_with("lanes = 2 ", "lanes = 0 ");
  ASSERT_FALSE(lanes.ok());
  EXPECT_NE(lanes.error().message.find("'channels.memcpy.lanes' must be in [1, 65536], not 0"), std::string::npos);
  auto issue = parse_machine(read(kMachines + "titan.toml"), "t", {"runtime.issue_point=\"middle\""});
  ASSERT_FALSE(issue.ok());
  EXPECT_NE(issue.error().message.find("issue_point"), std::string::npos);
}

TEST(MachineLoader, BadOverridesAndSyntaxErrors) {
  auto no_eq = parse_machine(read(kMachines + "titan.toml"), "t", {"network.latency_ns"});
  ASSERT_FALSE(no_eq.ok());
  EXPECT_NE(no_eq.error().message.find("key=value"), std::string::npos);
  auto no_section = parse_machine(read(kMachines + "titan.toml"), "t", {"nosuch.key=1"});
  ASSERT_FALSE(no_section.ok());
  EXPECT_NE(no_section.error().message.find("unknown key 'nosuch'"), std::string::npos) << no_section.error().message;
  auto unknown = parse_machine(read(kMachines + "titan.toml"), "t", {"network.latency=1"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown key 'network.latency'"), std::string::npos);
  auto syntax = parse_machine("[machine\nname = 1", "broken.toml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.error().where.file, "broken.toml");
  EXPECT_EQ(syntax.error().where.line, 1u);
  auto missing = load_machine(kMachines + "no_such_machine.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace rr::machine

namespace rr::machine {
namespace {

// What the writer writes, the loader reads back to the same model: every bundled machine and a traced one.
void expect_same_model(const MachineModel& a, const MachineModel& b, const std::string& what) {
  EXPECT_EQ(a.name, b.name) << what;
  EXPECT_EQ(a.description, b.description) << what;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(a.processors[k].count, b.processors[k].count) << what;
    EXPECT_EQ(a.processors[k].per_node, b.processors[k].per_node) << what;
    EXPECT_EQ(a.processors[k].speed, b.processors[k].speed) << what;
    EXPECT_EQ(a.processors[k].function_speed, b.processors[k].function_speed) << what;
  }
  ASSERT_EQ(a.channels.size(), b.channels.size()) << what;
  for (std::size_t i = 0; i < a.channels.size(); ++i) {
    EXPECT_EQ(a.channels[i].name, b.channels[i].name) << what;
    EXPECT_EQ(a.channels[i].latency_ns, b.channels[i].latency_ns) << what;
    EXPECT_EQ(a.channels[i].bytes_per_ns, b.channels[i].bytes_per_ns) << what;
    EXPECT_EQ(a.channels[i].lanes, b.channels[i].lanes) << what;
    EXPECT_EQ(a.channels[i].destination_side, b.channels[i].destination_side) << what;
  }
  ASSERT_EQ(a.paths.size(), b.paths.size()) << what;
  for (std::size_t i = 0; i < a.paths.size(); ++i) {
    EXPECT_EQ(a.paths[i].src, b.paths[i].src) << what;
    EXPECT_EQ(a.paths[i].dst, b.paths[i].dst) << what;
    EXPECT_EQ(a.paths[i].remote, b.paths[i].remote) << what;
    EXPECT_EQ(a.paths[i].hops, b.paths[i].hops) << what;
  }
  EXPECT_EQ(a.network_latency_ns, b.network_latency_ns) << what;
  EXPECT_EQ(a.runtime.task_launch_ns, b.runtime.task_launch_ns) << what;
  EXPECT_EQ(a.runtime.trigger_local_ns, b.runtime.trigger_local_ns) << what;
  EXPECT_EQ(a.runtime.trigger_remote_ns, b.runtime.trigger_remote_ns) << what;
  EXPECT_EQ(a.runtime.merge_ns, b.runtime.merge_ns) << what;
  EXPECT_EQ(a.runtime.barrier_arrival_ns, b.runtime.barrier_arrival_ns) << what;
  EXPECT_EQ(a.runtime.processor_start_ns, b.runtime.processor_start_ns) << what;
  EXPECT_EQ(a.runtime.processor_starts_ns, b.runtime.processor_starts_ns) << what;
  EXPECT_EQ(a.wait_frees_processor, b.wait_frees_processor) << what;
  EXPECT_EQ(a.issue_point, b.issue_point) << what;
  EXPECT_EQ(a.default_copy_bytes, b.default_copy_bytes) << what;
}

TEST(MachineWriter, WhatItWritesReadsBackTheSame) {
  for (const char* name : {"titan.toml", "titan_fastgpu.toml", "modern_multigpu.toml"}) {
    auto m = load_machine(kMachines + name, {"processors.cpu.function_speed.7=2.5", "processors.gpu.per_node=[1, 0, 3]",
                                             "processors.cpu.speed=0.3333333333333333",
                                             "runtime.processor_start_ns=40000000",
                                             "runtime.processor_starts_ns=[61000000, 45000000, 130000000]"});
    ASSERT_TRUE(m.ok()) << m.error().to_string();
    const std::string text = to_toml(*m, "a header\nof two lines", {{"network.latency_ns", "fitted"}});
    EXPECT_NE(text.find("latency_ns = " + std::to_string(m->network_latency_ns) + "   # fitted"), std::string::npos);
    auto back = parse_machine(text, "written");
    ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
    expect_same_model(*m, *back, name);
  }
}

// toml++ recurses once per key part: a key thousands deep overflowed the stack. 64 parts pass the guard (and
// fail the schema), 65 are refused on their line, and dots in strings, comments and floats are not parts.
TEST(MachineLoader, DeepDottedKeysAreRefusedBeforeParsing) {
  auto key = [](int parts) {
    std::string k = "a";
    for (int i = 1; i < parts; ++i) k += ".a";
    return k;
  };
  auto at_limit = parse_machine("x = 1.5\n" + key(64) + " = 1\n", "m.toml");
  ASSERT_FALSE(at_limit.ok());
  EXPECT_EQ(at_limit.error().message.find("dotted key"), std::string::npos) << at_limit.error().message;
  auto over = parse_machine("x = 1.5\n" + key(65) + " = 1\n", "m.toml");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().where.line, 2u);
  EXPECT_NE(over.error().message.find("more than 64 parts"), std::string::npos) << over.error().message;
  std::string titan = read(kMachines + "titan.toml");
  auto quoted = parse_machine(titan + "# " + key(1000) + "\n", "t", {"machine.description=\"" + key(1000) + "\""});
  EXPECT_TRUE(quoted.ok()) << quoted.error().to_string();
  auto in_set = parse_machine(titan, "t", {key(65) + "=1"});
  ASSERT_FALSE(in_set.ok());
  EXPECT_NE(in_set.error().message.find("more than 64 parts"), std::string::npos);
}

// Found by fuzz_machine_file: a name holding a control character (written "\b" in the file) was written back raw,
// which TOML forbids, so a fitted machine (calibrate -o) could not be read again.
TEST(MachineLoader, WrittenMachineReadsBackWhateverItsName) {
  auto m = parse_machine(read(kMachines + "titan.toml"), "t",
                         {"machine.name=\"a\\b\\u007f\\\"q\\\\ \\n[machine]\""});
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name, std::string("a\b\x7f\"q\\ \n[machine]"));
  const std::string written = to_toml(*m, "round trip");
  auto again = parse_machine(written, "written.toml");
  ASSERT_TRUE(again.ok()) << again.error().to_string() << "\n" << written;
  EXPECT_EQ(again->name, m->name);
  EXPECT_EQ(to_toml(*again, "round trip"), written);
}

}  // namespace
}  // namespace rr::machine
