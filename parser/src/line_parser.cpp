// The Boost.Spirit X3 grammar of the logger prefix and of the 14 record kinds (docs/realm-log-format.md), and line
// classification.
#include "parser/line_parser.hpp"

#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/spirit/home/x3.hpp>

#include "parser/src/number_parsers.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace rr::parser::grammar {

struct RawEvent {
  std::uint64_t id = 0;
  std::uint32_t gen = 0;
};
struct RawPrefix {
  std::uint32_t node = 0;
  std::uint64_t thread = 0;
  std::uint32_t level = 0;
};
struct RawIdKind {  // Processor, Memory
  std::uint64_t id = 0;
  std::int32_t kind = 0;
};
struct RawGroupHead {
  std::uint64_t id = 0;
  std::uint64_t count = 0;
};
struct RawTaskRequest {
  std::int32_t func = 0;  // %d of an unsigned value
  std::uint64_t target = 0;
  RawEvent finish, precondition, enclosing;
  std::int32_t priority = 0;
  std::uint64_t args = 0;  // 0 for "(nil)"
  std::uint64_t arglen = 0;
};
struct RawEventCount {  // Task Time, Copy Size, Event Merge
  RawEvent event;
  std::uint64_t value = 0;
};
struct RawTaskWait {
  RawEvent waiter, awaited;
  std::uint64_t micros = 0;
};
struct RawEventPair {  // Event Precondition
  RawEvent first, second;
};
struct RawEventTriple {  // Event Trigger
  RawEvent a, b, c;
};
struct RawIdCount {  // Barrier Creation
  std::uint64_t id = 0;
  std::uint32_t count = 0;
};
struct RawBarrierAlter {
  RawEvent phase, enclosing;
  std::int32_t delta = 0;
};
struct RawBarrierArrive {
  RawEvent phase, wait_on, enclosing;
  std::uint32_t count = 0;
};
struct RawCopyRequest {
  RawEvent copy, wait_on, enclosing;
  std::uint64_t src = 0, dst = 0;
};

}  // namespace rr::parser::grammar

BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawEvent, id, gen)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawPrefix, node, thread, level)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawIdKind, id, kind)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawGroupHead, id, count)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawTaskRequest, func, target, finish, precondition, enclosing,
                          priority, args, arglen)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawEventCount, event, value)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawTaskWait, waiter, awaited, micros)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawEventPair, first, second)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawEventTriple, a, b, c)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawIdCount, id, count)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawBarrierAlter, phase, enclosing, delta)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawBarrierArrive, phase, wait_on, enclosing, count)
BOOST_FUSION_ADAPT_STRUCT(rr::parser::grammar::RawCopyRequest, copy, wait_on, enclosing, src, dst)

namespace rr::parser::grammar {

namespace x3 = boost::spirit::x3;
using x3::lit;

// Terminals. Each is a named rule so an expectation failure says what was expected.
x3::rule<struct hex_id_tag, std::uint64_t> const hex_id = "hexadecimal id";
x3::rule<struct u32_tag, std::uint32_t> const u32 = "unsigned integer";
x3::rule<struct u64_tag, std::uint64_t> const u64 = "unsigned integer";
x3::rule<struct i32_tag, std::int32_t> const i32 = "integer";
x3::rule<struct sp_tag> const sp = "space";
x3::rule<struct eol_tag> const end_of_line = "end of line";
x3::rule<struct event_tag, RawEvent> const event = "event (id,gen)";
x3::rule<struct generation_tag, std::uint32_t> const generation = "generation";
x3::rule<struct args_tag, std::uint64_t> const args_pointer = "args pointer (0x... or (nil))";

auto const hex_id_def = hex_u64;
auto const u32_def = dec_u32;
auto const u64_def = dec_u64;
auto const i32_def = x3::int_parser<std::int32_t, 10>{};
auto const sp_def = +lit(' ');
auto const end_of_line_def = *lit(' ') >> x3::eoi;
// Blanks after the comma: the 6-input merge prints "(id, gen)" (docs/realm-log-format.md, Quirks).
auto const generation_def = *lit(' ') >> u32;
auto const event_def = lit('(') > hex_id > lit(',') > generation > lit(')');
// %p prints "(nil)" for NULL (glibc): a parenthesised token that is not an event.
auto const args_pointer_def = (lit("(nil)") >> x3::attr(std::uint64_t{0})) | (lit("0x") > hex_id);

BOOST_SPIRIT_DEFINE(hex_id, u32, u64, i32, sp, end_of_line, event, generation, args_pointer)

// "[<node> - <pthread hex>] {<level>}{" — the category and "}: " are matched by hand.
auto const prefix = lit('[') >> u32 >> lit(" - ") >> hex_id >> lit("] {") >> u32 >> lit("}{");

// Record bodies, after "<Name>: ". Every field is an expectation (eps > ...), so a
// failure throws with the position and the name of the field that was expected.
auto const id_kind = x3::eps > hex_id > sp > i32 > end_of_line;
auto const group_head = x3::eps > hex_id > sp > u64;
auto const task_request = x3::eps > i32 > sp > hex_id > sp > event > sp > event > sp > event > sp > i32 > sp >
                          args_pointer > sp > u64 > end_of_line;
auto const event_count = x3::eps > event > sp > u64 > end_of_line;
auto const task_wait = x3::eps > event > sp > event > sp > u64 > end_of_line;
auto const event_pair = x3::eps > event > sp > event > end_of_line;
auto const event_triple = x3::eps > event > sp > event > sp > event > end_of_line;
auto const id_count = x3::eps > hex_id > sp > u32 > end_of_line;
auto const barrier_alter = x3::eps > event > sp > event > sp > i32 > end_of_line;
auto const barrier_arrive = x3::eps > event > sp > event > sp > event > sp > u32 > end_of_line;
auto const copy_request = x3::eps > event > sp > event > sp > event > sp > hex_id > sp > hex_id > end_of_line;

// Record names. "Event Precondition" is accepted with or without its colon: the
// description of the records on Legion's website omits it, the code prints it (docs/realm-log-format.md, Quirks).
struct RecordNames : x3::symbols<core::RecordKind> {
  RecordNames() {
    using K = core::RecordKind;
    add("Processor:", K::processor)("Group:", K::group)("Memory:", K::memory)("Task Request:", K::task_request)(
        "Task Time:", K::task_time)("Task Wait:", K::task_wait)("Event Merge:", K::event_merge)(
        "Event Precondition:", K::event_precondition)("Event Precondition", K::event_precondition)(
        "Event Trigger:", K::event_trigger)("Barrier Creation:", K::barrier_creation)(
        "Barrier Alter:", K::barrier_alter)("Barrier Arrive:", K::barrier_arrive)("Copy Request:", K::copy_request)(
        "Copy Size:", K::copy_size);
  }
};
RecordNames const record_names;

}  // namespace rr::parser::grammar

namespace rr::parser {
namespace {

namespace x3 = boost::spirit::x3;
using Iter = const char*;

core::EventKey to_key(const grammar::RawEvent& e) { return core::EventKey::make(e.id, e.gen); }

unsigned type_nibble(std::uint64_t id) {
  return id > 0xffffffffull ? static_cast<unsigned>(id >> 60) : static_cast<unsigned>(id >> 28);
}

std::string shorten(std::string_view line) {
  constexpr std::size_t kMax = 160;
  std::string out;
  out.reserve(std::min(line.size(), kMax) + 3);
  for (char c : line.substr(0, kMax)) out.push_back((c >= 0x20 && c < 0x7f) ? c : '?');
  if (line.size() > kMax) out += "...";
  return out;
}

// The unprefixed shutdown dump of E2c (docs/realm-log-format.md, Files and lines): PRINTING ALL PENDING EVENTS:,
// "Event <hex>: gen=...", "  [<gen>] L:..." / "  [<gen>] R: ...", DONE.
bool is_pending_dump_line(std::string_view line) {
  if (line == "DONE" || line == "PRINTING ALL PENDING EVENTS:") return true;
  if (line.starts_with("  [")) return true;
  if (line.starts_with("Event ") && line.size() > 6 && std::isxdigit(static_cast<unsigned char>(line[6])))
    return line.find(": gen=") != std::string_view::npos;
  return false;
}

}  // namespace

void LineParser::malformed(core::Stat reason, std::string message, std::string_view line,
                           std::uint32_t relative_line) {
  ++stats_.counts[reason];
  if (stats_.first_messages.size() < max_messages_) {
    core::Diagnostic d;
    d.stat = reason;
    d.where.line = relative_line;  // made absolute when the chunk is merged
    d.message = std::move(message);
    d.quote = shorten(line);
    stats_.first_messages.push_back(std::move(d));
  }
}

void LineParser::note_overlong_line(std::string_view head, std::uint32_t relative_line) {
  ++stats_.lines;
  malformed(core::Stat::line_too_long,
            "line longer than " + std::to_string(kMaxLineBytes) + " bytes skipped", head, relative_line);
}

void LineParser::note_prefix(std::uint32_t node, std::uint64_t thread) {
  if (thread != last_thread_) {
    last_thread_ = thread;
    if (threads_seen_.insert(thread).second) stats_.threads.push_back(thread);
  }
  auto& nodes = stats_.prefix_nodes;
  if (static_cast<std::int64_t>(node) == last_node_) {  // the common case: a file of one node's lines
    ++nodes[last_slot_].second;
    return;
  }
  last_node_ = node;
  const auto [slot, fresh] = node_slot_.try_emplace(node, static_cast<std::uint32_t>(nodes.size()));
  last_slot_ = slot->second;
  if (fresh)
    nodes.emplace_back(node, 1);
  else
    ++nodes[last_slot_].second;
}

std::uint32_t LineParser::parse_text(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  std::uint32_t line = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* line_end = nl ? nl : end;
    parse_line(std::string_view(p, static_cast<std::size_t>(line_end - p)), line++);
    p = nl ? nl + 1 : end;
  }
  return line;
}

void LineParser::parse_line(std::string_view line, std::uint32_t relative_line) {
  ++stats_.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(' ') == std::string_view::npos) {
    ++stats_.counts[core::Stat::blank];
    return;
  }
  if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
    malformed(core::Stat::binary_data, "NUL byte in line (binary data?)", line, relative_line);
    return;
  }

  if (line.front() == '[') {
    grammar::RawPrefix prefix;
    Iter it = line.data();
    Iter end = line.data() + line.size();
    if (!x3::parse(it, end, grammar::prefix, prefix)) {
      if (line.find("{graph}") != std::string_view::npos)
        malformed(core::Stat::bad_prefix, "malformed logger prefix", line, relative_line);
      else
        ++stats_.counts[core::Stat::unprefixed_text];
      return;
    }
    std::string_view rest(it, static_cast<std::size_t>(end - it));
    std::size_t close = rest.find("}: ");
    if (close == std::string_view::npos) {
      malformed(core::Stat::bad_prefix, "malformed logger prefix (no \"}: \")", line, relative_line);
      return;
    }
    std::string_view category = rest.substr(0, close);
    if (prefix.node > core::kMaxNode) {
      // A node no id can name: counting it would make the file (and the model) a node of that number.
      if (category == "graph")
        malformed(core::Stat::value_out_of_range,
                  "node " + std::to_string(prefix.node) + " in the logger prefix is beyond the largest a Realm id names (" +
                      std::to_string(core::kMaxNode) + ")",
                  line, relative_line);
      else
        ++stats_.counts[core::Stat::unprefixed_text];
      return;
    }
    note_prefix(prefix.node, prefix.thread);
    if (category != "graph") {
      ++stats_.counts[core::Stat::other_category];
      auto found = stats_.other_categories.find(category);
      if (found == stats_.other_categories.end())
        stats_.other_categories.emplace(std::string(category), 1);
      else
        ++found->second;
      return;
    }
    parse_record(rest.substr(close + 3), static_cast<int>(prefix.level), line, relative_line);
    return;
  }

  if (is_pending_dump_line(line)) {
    ++stats_.counts[core::Stat::pending_event_dump];
    if (line.front() == 'P') ++stats_.era.pending_dump_blocks;
    return;
  }
  // A record written without the logger prefix (stderr capture, or a hand-made trace).
  Iter it = line.data();
  core::RecordKind kind;
  if (x3::parse(it, line.data() + line.size(), grammar::record_names, kind)) {
    parse_record(line, -1, line, relative_line);
    return;
  }
  ++stats_.counts[core::Stat::unprefixed_text];
}

// One case per record kind of the format, each a grammar rule and its checks; it is over 120 lines because the
// 14 kinds read best side by side, where a reader compares how each is parsed and stored.
void LineParser::parse_record(std::string_view body, int level, std::string_view whole_line,
                              std::uint32_t relative_line) {
  using core::RecordKind;
  namespace g = grammar;
  Iter it = body.data();
  Iter const end = body.data() + body.size();
  RecordKind kind;
  if (!x3::parse(it, end, g::record_names, kind)) {
    std::string_view name = body.substr(0, body.find(':'));
    malformed(core::Stat::unknown_record, "unknown record kind \"" + shorten(name) + "\"", whole_line,
              relative_line);
    return;
  }
  // One blank after the name (none when the body is empty, which the field parsers reject).
  if (it != end && *it == ' ') ++it;
  Iter const fields_begin = it;
  const std::uint32_t line_no = relative_line;

  auto bad = [&](core::Stat reason, const std::string& what) {
    ++stats_.malformed_by_kind[kind];
    malformed(reason, "malformed " + std::string(core::record_kind_name(kind)) + " record: " + what, whole_line,
              relative_line);
  };

  try {
    switch (kind) {
      case RecordKind::processor:
      case RecordKind::memory: {
        g::RawIdKind r;
        x3::parse(it, end, g::id_kind, r);
        stats_.note_id(r.id);
        if (kind == RecordKind::processor)
          batch_.processors.push_back({line_no, core::Handle::make(r.id), core::processor_kind_from_int(r.kind)});
        else
          batch_.memories.push_back({line_no, core::Handle::make(r.id), core::memory_kind_from_int(r.kind)});
        break;
      }
      case RecordKind::group: {
        g::RawGroupHead head;
        x3::parse(it, end, g::group_head, head);
        const auto first = static_cast<std::uint32_t>(batch_.group_members.size());
        std::uint64_t listed = 0;
        for (;;) {
          std::uint64_t member = 0;
          if (x3::parse(it, end, g::sp >> g::hex_id, member)) {
            batch_.group_members.push_back(member);
            stats_.note_id(member);
            ++listed;
            continue;
          }
          x3::parse(it, end, x3::eps > g::end_of_line);
          break;
        }
        if (listed != head.count) {
          batch_.group_members.resize(first);
          bad(core::Stat::group_count_mismatch,
              "announces " + std::to_string(head.count) + " members but lists " + std::to_string(listed));
          return;
        }
        stats_.note_id(head.id);
        batch_.groups.push_back({line_no, core::Handle::make(head.id), first, static_cast<std::uint32_t>(listed)});
        break;
      }
      case RecordKind::task_request: {
        g::RawTaskRequest r;
        x3::parse(it, end, g::task_request, r);
        if (r.arglen > std::numeric_limits<std::uint32_t>::max()) {
          bad(core::Stat::value_out_of_range, "args length " + std::to_string(r.arglen) + " too large");
          return;
        }
        stats_.note_id(r.target);
        stats_.note_id(r.finish.id);
        stats_.note_id(r.precondition.id);
        stats_.note_id(r.enclosing.id);
        if (r.args == 0) ++stats_.null_args;
        batch_.task_requests.push_back({line_no, static_cast<std::uint32_t>(r.func), core::Handle::make(r.target),
                                        to_key(r.finish), to_key(r.precondition), to_key(r.enclosing), r.priority});
        break;
      }
      case RecordKind::task_time:
      case RecordKind::copy_size: {
        g::RawEventCount r;
        x3::parse(it, end, g::event_count, r);
        if (kind == RecordKind::task_time && r.value > core::kMaxLoggedMicros) {
          bad(core::Stat::value_out_of_range,
              "task time " + std::to_string(r.value) + " us is beyond the limit of 2^42 us (51 days)");
          return;
        }
        stats_.note_id(r.event.id);
        if (kind == RecordKind::task_time)
          batch_.task_times.push_back({to_key(r.event), r.value});
        else
          batch_.copy_sizes.push_back({to_key(r.event), r.value});
        break;
      }
      case RecordKind::task_wait: {
        g::RawTaskWait r;
        x3::parse(it, end, g::task_wait, r);
        if (r.micros > core::kMaxLoggedMicros) {
          bad(core::Stat::value_out_of_range,
              "task wait " + std::to_string(r.micros) + " us is beyond the limit of 2^42 us (51 days)");
          return;
        }
        stats_.note_id(r.waiter.id);
        stats_.note_id(r.awaited.id);
        batch_.task_waits.push_back({line_no, to_key(r.waiter), to_key(r.awaited), r.micros});
        break;
      }
      case RecordKind::event_merge: {
        g::RawEventCount r;
        x3::parse(it, end, g::event_count, r);
        if (r.value > std::numeric_limits<std::uint32_t>::max()) {
          bad(core::Stat::value_out_of_range, "input count " + std::to_string(r.value) + " too large");
          return;
        }
        stats_.note_id(r.event.id);
        if (r.value == 0) ++stats_.era.merges_with_zero_inputs;
        if (r.value == 1) ++stats_.era.merges_with_one_input;
        batch_.event_merges.push_back({line_no, to_key(r.event), static_cast<std::uint32_t>(r.value)});
        break;
      }
      case RecordKind::event_precondition: {
        g::RawEventPair r;
        x3::parse(it, end, g::event_pair, r);
        stats_.note_id(r.first.id);
        stats_.note_id(r.second.id);
        if (std::string_view(fields_begin, static_cast<std::size_t>(end - fields_begin)).find(", ") !=
            std::string_view::npos)
          ++stats_.era.spaced_preconditions;
        batch_.event_preconditions.push_back({to_key(r.first), to_key(r.second)});
        break;
      }
      case RecordKind::event_trigger: {
        g::RawEventTriple r;
        x3::parse(it, end, g::event_triple, r);
        stats_.note_id(r.a.id);
        stats_.note_id(r.b.id);
        stats_.note_id(r.c.id);
        batch_.event_triggers.push_back({line_no, to_key(r.a), to_key(r.b), to_key(r.c)});
        break;
      }
      case RecordKind::barrier_creation: {
        g::RawIdCount r;
        x3::parse(it, end, g::id_count, r);
        stats_.note_id(r.id);
        if (type_nibble(r.id) == 3) ++stats_.era.barrier_type3_ids;
        batch_.barrier_creations.push_back({line_no, core::Handle::make(r.id), r.count});
        break;
      }
      case RecordKind::barrier_alter: {
        g::RawBarrierAlter r;
        x3::parse(it, end, g::barrier_alter, r);
        stats_.note_id(r.phase.id);
        stats_.note_id(r.enclosing.id);
        if (type_nibble(r.phase.id) == 3) ++stats_.era.barrier_type3_ids;
        batch_.barrier_alters.push_back({line_no, to_key(r.phase), to_key(r.enclosing), r.delta});
        break;
      }
      case RecordKind::barrier_arrive: {
        g::RawBarrierArrive r;
        x3::parse(it, end, g::barrier_arrive, r);
        stats_.note_id(r.phase.id);
        stats_.note_id(r.wait_on.id);
        stats_.note_id(r.enclosing.id);
        if (type_nibble(r.phase.id) == 3) ++stats_.era.barrier_type3_ids;
        batch_.barrier_arrives.push_back({line_no, to_key(r.phase), to_key(r.wait_on), to_key(r.enclosing), r.count});
        break;
      }
      case RecordKind::copy_request: {
        g::RawCopyRequest r;
        x3::parse(it, end, g::copy_request, r);
        stats_.note_id(r.copy.id);
        stats_.note_id(r.wait_on.id);
        stats_.note_id(r.enclosing.id);
        stats_.note_id(r.src);
        stats_.note_id(r.dst);
        batch_.copy_requests.push_back({line_no, to_key(r.copy), to_key(r.wait_on), to_key(r.enclosing),
                                        core::Handle::make(r.src), core::Handle::make(r.dst)});
        break;
      }
    }
  } catch (const x3::expectation_failure<Iter>& failure) {
    const auto column = static_cast<std::size_t>(failure.where() - whole_line.data()) + 1;
    bad(core::Stat::bad_fields, "expected " + failure.which() + " at column " + std::to_string(column));
    return;
  }
  ++stats_.records[kind];
  if (level >= 0 && level != core::expected_level(kind)) ++stats_.unexpected_level;
}

}  // namespace rr::parser
