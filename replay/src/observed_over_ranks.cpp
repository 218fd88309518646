// The comparison with the observed run of a replay from parts: every rank collects its own operations' samples by
// the one rule (observed_samples.hpp), and the ranks put together their sums and, by bisection on counts, the
// medians and 95th percentiles of all of them, so that no rank holds another's samples.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "replay/byte_wire.hpp"
#include "replay/observed_comparison.hpp"
#include "replay/part_replay.hpp"
#include "replay/src/observed_samples.hpp"

namespace rr::replay {

namespace {

// A group's four series, each sorted: the signed start and end errors (their medians) and their absolute values
// (their 95th percentiles).
constexpr std::size_t kSeries = 4;
constexpr std::array<double, kSeries> kQuantileOf{0.5, 0.5, 0.95, 0.95};
using Series = std::array<std::vector<TimeNs>, kSeries>;

Series series_of(const ObservedSamples& s) {
  Series x{s.start, s.end, s.start, s.end};
  for (std::size_t i = 2; i < kSeries; ++i)
    for (TimeNs& t : x[i]) t = t < 0 ? -t : t;
  for (auto& v : x) std::sort(v.begin(), v.end());
  return x;
}

// What a rank tells the others of one group, and what their sums are: the count, the busy times, each series' least
// and greatest value (where its bisection begins).
struct GroupSums {
  std::uint64_t count = 0;
  TimeNs observed_busy = 0, replayed_busy = 0;
  std::array<TimeNs, kSeries> least{}, greatest{};
};

GroupSums sums_of(const ObservedSamples& s, const Series& x) {
  GroupSums g;
  g.count = s.start.size();
  g.observed_busy = s.observed_busy;
  g.replayed_busy = s.replayed_busy;
  for (std::size_t i = 0; i < kSeries && g.count > 0; ++i) {
    g.least[i] = x[i].front();
    g.greatest[i] = x[i].back();
  }
  return g;
}

void add(GroupSums& total, const GroupSums& part) {
  if (part.count == 0) return;
  for (std::size_t i = 0; i < kSeries; ++i) {
    total.least[i] = total.count == 0 ? part.least[i] : std::min(total.least[i], part.least[i]);
    total.greatest[i] = total.count == 0 ? part.greatest[i] : std::max(total.greatest[i], part.greatest[i]);
  }
  total.count += part.count;
  total.observed_busy += part.observed_busy;
  total.replayed_busy += part.replayed_busy;
}

void put(ByteWriter& w, const GroupSums& g) {
  w.put(g.count);
  w.put(g.observed_busy);
  w.put(g.replayed_busy);
  w.put(g.least);
  w.put(g.greatest);
}

GroupSums get_sums(ByteReader& r) {
  GroupSums g;
  g.count = r.get<std::uint64_t>();
  g.observed_busy = r.get<TimeNs>();
  g.replayed_busy = r.get<TimeNs>();
  g.least = r.get<std::array<TimeNs, kSeries>>();
  g.greatest = r.get<std::array<TimeNs, kSeries>>();
  return g;
}

// Every rank sends every other one the same message; what each sent, by rank (this rank's own included).
std::vector<std::vector<std::byte>> share(graph::RankExchange& exchange, std::vector<std::byte> mine) {
  return exchange.all_to_all(std::vector<std::vector<std::byte>>(exchange.ranks(), mine));
}

// One quantile of one group's series over every rank: the smallest value with at least `k` of them at or below it,
// between lo and hi. `own` is this rank's series (empty when it has none of the group).
struct Quantile {
  const std::vector<TimeNs>* own;
  std::uint64_t k;
  TimeNs lo, hi;
};

TimeNs midpoint(TimeNs lo, TimeNs hi) {  // lo <= mid < hi, without overflow
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return static_cast<TimeNs>(static_cast<std::uint64_t>(lo) + span / 2);
}

// All the quantiles at once, one exchange per step; every rank moves every bound alike.
void bisect(graph::RankExchange& exchange, std::vector<Quantile>& qs) {
  for (;;) {
    std::vector<std::uint64_t> at_or_below(qs.size(), 0);
    bool open = false;
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (qs[i].lo >= qs[i].hi) continue;
      open = true;
      const std::vector<TimeNs>& own = *qs[i].own;
      at_or_below[i] = static_cast<std::uint64_t>(
          std::upper_bound(own.begin(), own.end(), midpoint(qs[i].lo, qs[i].hi)) - own.begin());
    }
    if (!open) return;
    ByteWriter w;
    w.put_all(std::span<const std::uint64_t>(at_or_below));
    std::vector<std::uint64_t> total(qs.size(), 0);
    for (const auto& bytes : share(exchange, w.take())) {
      ByteReader r(bytes);
      const std::vector<std::uint64_t> counts = r.get_all<std::uint64_t>();
      for (std::size_t i = 0; i < qs.size(); ++i) total[i] += counts.at(i);
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (qs[i].lo >= qs[i].hi) continue;
      const TimeNs mid = midpoint(qs[i].lo, qs[i].hi);
      if (total[i] >= qs[i].k) qs[i].hi = mid;
      else qs[i].lo = mid + 1;
    }
  }
}

}  // namespace

std::optional<ObservedComparison> compare_with_observed_over_ranks(const ReplayResult& r, graph::RankExchange& exchange) {
  const graph::EventGraph& g = graph_of_part(r);
  return compare_samples_over_ranks(g, r, [&](graph::VertexId v) { return place_of(r, g.whole_id(v)).record; },
                                    exchange);
}

std::optional<ObservedComparison> compare_samples_over_ranks(const graph::EventGraph& g, const ReplayResult& r,
                                                             const RecordOf& record_of, graph::RankExchange& exchange) {
  const ObservedSampleSet samples = collect_observed_samples(g, r, record_of);
  std::array<Series, kObservedGroups> group_series;
  for (std::size_t k = 0; k < kObservedGroups; ++k) group_series[k] = series_of(samples.by_group[k]);
  std::map<std::uint32_t, Series> function_series;
  for (const auto& [func, s] : samples.by_function) function_series[func] = series_of(s);

  ByteWriter w;
  w.put<std::uint8_t>(g.has_observed() ? 1 : 0);
  w.put(samples.observed_makespan_ns);
  w.put(samples.operations);
  w.put(samples.not_replayed);
  for (std::size_t k = 0; k < kObservedGroups; ++k) put(w, sums_of(samples.by_group[k], group_series[k]));
  w.put<std::uint64_t>(samples.by_function.size());
  for (const auto& [func, s] : samples.by_function) {
    w.put(func);
    put(w, sums_of(s, function_series.at(func)));
    w.put_text(g.function_name(func));
  }

  bool observed = false;
  ObservedComparison out;
  out.estimated_ns = r.makespan_ns;
  std::array<GroupSums, kObservedGroups> groups;
  std::map<std::uint32_t, GroupSums> functions;
  std::map<std::uint32_t, std::string> labels;  // each function's name as the lowest rank that ran it gives it
  for (const auto& bytes : share(exchange, w.take())) {
    ByteReader in(bytes);
    observed = in.get<std::uint8_t>() != 0 || observed;
    out.observed_makespan_ns = std::max(out.observed_makespan_ns, in.get<TimeNs>());
    out.operations += in.get<std::uint64_t>();
    out.not_replayed += in.get<std::uint64_t>();
    for (std::size_t k = 0; k < kObservedGroups; ++k) add(groups[k], get_sums(in));
    const auto n = in.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto func = in.get<std::uint32_t>();
      add(functions[func], get_sums(in));
      std::string label = in.get_text();
      labels.try_emplace(func, std::move(label));
    }
  }
  if (!observed) return std::nullopt;

  // Each reported group's four quantiles, in the report's order: the kinds, then the functions by id.
  static const std::vector<TimeNs> kNone;
  std::vector<Quantile> qs;
  auto ask = [&](const GroupSums& total, const Series* own) {
    for (std::size_t i = 0; i < kSeries; ++i)
      qs.push_back({own ? &(*own)[i] : &kNone, nearest_rank(kQuantileOf[i], total.count), total.least[i],
                    total.greatest[i]});
  };
  for (std::size_t k = 0; k < kObservedGroups; ++k)
    if (groups[k].count > 0) ask(groups[k], &group_series[k]);
  for (const auto& [func, total] : functions) {
    auto own = function_series.find(func);
    ask(total, own == function_series.end() ? nullptr : &own->second);
  }
  bisect(exchange, qs);

  std::size_t q = 0;
  auto errors = [&](std::string name, const GroupSums& total) {
    ObservedErrors e;
    e.name = std::move(name);
    e.count = total.count;
    e.observed_busy_ns = total.observed_busy;
    e.replayed_busy_ns = total.replayed_busy;
    e.start_median_ns = qs[q++].lo;
    e.end_median_ns = qs[q++].lo;
    e.start_p95_abs_ns = qs[q++].lo;
    e.end_p95_abs_ns = qs[q++].lo;
    return e;
  };
  for (std::size_t k = 0; k < kObservedGroups; ++k)
    if (groups[k].count > 0) out.by_kind.push_back(errors(kObservedGroupNames[k], groups[k]));
  for (const auto& [func, total] : functions) out.by_function.push_back(errors(labels.at(func), total));
  finish_observed_comparison(out);
  return out;
}

}  // namespace rr::replay
