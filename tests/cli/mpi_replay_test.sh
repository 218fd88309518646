#!/usr/bin/env bash
# One replay over MPI ranks (realm-replay-mpi, docs/scale.md) prints on rank 0 what realm-replay prints, byte for
# byte: text and JSON reports (critical path included, and --perturb's distribution) and the timeline, at 1 to 4
# ranks (as many as the model has nodes), on a trace of every generator family, the bundled real traces, S3D traces
# and Legion Prof logs (each rank reading its own processes' logs), and on the traced machine, put together and fitted
# from the parts, with and without a fold or node map, and on models whose nodes share cores or whose processors start
# up; at one rank, its standard error too. A Legion Prof log one rank cannot read stops every rank, naming it. More
# ranks than model nodes is refused, naming how many can be used.
# Usage: mpi_replay_test.sh REALM_REPLAY REALM_REPLAY_MPI SOURCE_DIR
set -euo pipefail
bin=$1 mpibin=$2 src=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/mpi_env.sh"
titan=$src/data/machines/titan.toml

"$bin" gen s3d --nodes 4 --strategy mixed -o "$tmp/s3d" > /dev/null
"$bin" gen chain --nodes 4 --length 200 -o "$tmp/chain" > /dev/null
"$bin" gen fork-join --nodes 4 --stages 6 -o "$tmp/fork-join" > /dev/null
"$bin" gen stencil --nodes 4 --steps 3 -o "$tmp/stencil" > /dev/null
"$bin" gen random-dag --nodes 4 --ops 4000 -o "$tmp/random-dag" > /dev/null

# mpi_same NAME RANKS ARGS...: the MPI program's report (and timeline) at RANKS ranks against one process's; with
# READS=parts each rank must have read only its own nodes' files, with READS=whole every rank the whole trace. One
# rank runs as one process does, whatever READS says: it has nothing to split, and says what one process says.
READS=parts
mpi_same() {
  local name=$1 ranks=$2; shift 2
  "$bin" replay -q "$@" --timeline "$tmp/one.tl" > "$tmp/one.out" 2> "$tmp/one.err"
  timeout 120 mpirun -np "$ranks" "$mpibin" replay -q "$@" --timeline "$tmp/mpi.tl" > "$tmp/mpi.out" 2> "$tmp/mpi.err" || {
    echo "FAILED: $name at $ranks ranks:"; cat "$tmp/mpi.err"; exit 1; }
  cmp "$tmp/one.out" "$tmp/mpi.out" || { echo "FAILED: $name at $ranks ranks: the report differs"; exit 1; }
  cmp "$tmp/one.tl" "$tmp/mpi.tl" || { echo "FAILED: $name at $ranks ranks: the timeline differs"; exit 1; }
  if [ "$ranks" = 1 ]; then
    cmp "$tmp/one.err" "$tmp/mpi.err" || { echo "FAILED: $name at 1 rank: its standard error is not one process's:";
      cat "$tmp/mpi.err"; exit 1; }
    return
  fi
  local read=parts
  ! grep -q "every rank reads the whole trace" "$tmp/mpi.err" || read=whole
  # Read and built from parts, then refused by the split alone (a completion queue fed from two ranks' processes).
  ! grep -q "does not run from parts (.*the split cannot serve this replay: a completion queue has inputs from two blocks)" \
    "$tmp/mpi.err" || read=split
  [ "$read" = "$READS" ] || { echo "FAILED: $name at $ranks ranks: read $read, not $READS:"; cat "$tmp/mpi.err"; exit 1; }
}

# check TRACE MACHINE [options]: text and JSON at 1 to 4 ranks, or as many as the model has nodes (which the
# report's first line ends with; the traced machine's description counts its nodes before).
check() {
  local trace=$1 machine=$2; shift 2
  local nodes
  nodes=$("$bin" replay -q "$trace" -m "$machine" --no-what-ifs "$@" | head -1 | grep -o '[0-9]* node(s)' | tail -1 | cut -d' ' -f1)
  [[ "$nodes" =~ ^[0-9]+$ ]] || { echo "FAILED: $trace on $machine: no node count in the report's first line"; exit 1; }
  local top=$(( nodes < 4 ? nodes : 4 ))
  for ranks in $(seq 1 "$top"); do
    mpi_same "$trace" "$ranks" "$trace" -m "$machine" "$@"
    mpi_same "$trace --json" "$ranks" "$trace" -m "$machine" --json "$@"
  done
  echo "same at 1 to $top rank(s): $(basename "$trace") on $(basename "$machine") $*"
}

for family in s3d chain fork-join stencil random-dag; do
  check "$tmp/$family" "$tmp/$family/machine.toml"
done
check "$tmp/s3d" "$titan"
check "$tmp/random-dag" "$titan" --placement pool
for t in "$src"/data/traces/real/full_* "$src"/data/traces/s3d/*; do
  check "$t" "$titan"
done
check "$src/data/traces/s3d/dme_mixed_4n" "$titan" --placement traced
check "$src/data/traces/s3d/dme_mixed_4n" "$titan" --placement eft
# A packed trace: each rank reads its part of the file (its node index, its rows, their payloads and edges).
"$bin" pack -q "$tmp/stencil" -o "$tmp/stencil.rrg" > /dev/null
"$bin" pack -q "$src/data/traces/s3d/dme_mixed_4n" -o "$tmp/s3d_mixed_4n.rrg" > /dev/null
check "$tmp/stencil.rrg" "$tmp/stencil/machine.toml"
check "$tmp/s3d_mixed_4n.rrg" "$titan"
# --perturb: every rank replays each noisy sample from its part, one sample after another.
perturb=(--perturb 0.1 --samples 8 --seed 3)
check "$tmp/s3d" "$tmp/s3d/machine.toml" "${perturb[@]}"
check "$src/data/traces/real/full_circuit_2node_p4_cpu2" "$titan" "${perturb[@]}"
# The traced machine (-m traced), put together from the parts: the machine records shared, the median copy size
# found over the ranks, the network latency fitted by replays from parts, each rank summing the waits it owns; the
# same machine, and so the same report, as one process's. On both traces the latency is fitted.
for t in real/full_circuit_2node_p4_cpu2 s3d/dme_mixed_4n; do
  "$bin" machine from-trace -q "$src/data/traces/$t" > "$tmp/traced.toml"  # (whole: grep -q would cut the pipe)
  grep -q 'fitted so that' "$tmp/traced.toml" || { echo "FAILED: the traced machine of $t is not fitted"; exit 1; }
  check "$src/data/traces/$t" traced
done
# Packed with its facts (the fit runs from parts) and with its fit (nothing to fit).
"$bin" pack -q --no-fit "$src/data/traces/real/full_circuit_2node_p4_cpu2" -o "$tmp/circuit.rrg" > /dev/null
check "$tmp/circuit.rrg" traced
check "$tmp/s3d_mixed_4n.rrg" traced
# A fold or node map: each rank reads the files of the traced nodes whose model node is in its range (several, not
# consecutive under the cyclic rule or a list), or their runs of the packed file's node index.
printf 'node_map = [1, 0, 1, 0]\n' > "$tmp/swapped.toml"
printf 'node_map = [2, 0, 2, 0]\n' > "$tmp/gap.toml"  # (model node 1 holds no traced node)
check "$tmp/stencil" "$tmp/stencil/machine.toml" --fold 2
check "$tmp/s3d" "$titan" --fold 3 --node-map block
check "$tmp/random-dag" "$titan" --fold 3 --placement pool
check "$tmp/chain" "$tmp/chain/machine.toml" --node-map "$tmp/swapped.toml"
gap=("$tmp/fork-join" -m "$tmp/fork-join/machine.toml" --node-map "$tmp/gap.toml" --placement eft)
mpi_same "fork-join, model node 1 empty" 2 "${gap[@]}"
mpi_same "fork-join, model node 1 empty --json" 2 "${gap[@]}" --json
check "$src/data/traces/s3d/dme_mixed_4n" "$titan" --fold 2 --node-map block --placement traced
check "$src/data/traces/real/full_circuit_2node_p4_cpu2" "$titan" --fold 1
check "$tmp/stencil" "$tmp/stencil/machine.toml" --fold 2 "${perturb[@]}"
check "$tmp/s3d_mixed_4n.rrg" "$titan" --fold 2
check "$tmp/stencil.rrg" "$tmp/stencil/machine.toml" --node-map "$tmp/swapped.toml"
# The traced machine fitted on the parts split by the fold (its replays unfolded), then the run folded.
check "$src/data/traces/s3d/dme_mixed_4n" traced --fold 3
check "$tmp/s3d_mixed_4n.rrg" traced --fold 2 --node-map block
# --against-observed on logs that record no observed times: the ranks replay from parts and compare over the ranks,
# and rank 0 refuses it in one process's words.
observed=("$src/data/traces/real/full_circuit_2node_p4_cpu2" -m "$titan" --against-observed)
! "$bin" replay -q "${observed[@]}" > /dev/null 2> "$tmp/one.err" || { echo "FAILED: --against-observed ran on 2015 logs"; exit 1; }
! timeout 120 mpirun -np 2 "$mpibin" replay -q "${observed[@]}" > /dev/null 2> "$tmp/mpi.err" ||
  { echo "FAILED: --against-observed ran on 2015 logs over 2 ranks"; exit 1; }
grep -qF "$(cat "$tmp/one.err")" "$tmp/mpi.err" || { echo "FAILED: --against-observed over 2 ranks:"; cat "$tmp/mpi.err"; exit 1; }
! grep -q "every rank reads the whole trace" "$tmp/mpi.err" || { echo "FAILED: --against-observed read the whole trace"; exit 1; }
# Nodes that share cores, processors that start up (a typical length; measured lengths in order, one of no length),
# alone and together: each rank replays its nodes' clocks and start-ups, every rank lists the run's start-ups, and the
# critical path and its lower bound read the issue times where the work that issued them ran (docs/scale.md).
circuit=$src/data/traces/real/full_circuit_2node_p4_cpu2
starts=(--set 'runtime.processor_starts_ns=[30000, 0, 10000]' --set runtime.processor_start_ns=5000)
check "$circuit" "$titan" --set node.cores=1
check "$circuit" "$titan" --set node.cores=2 --set runtime.processor_start_ns=20000
check "$src/data/traces/s3d/dme_all_4n" "$titan" --set node.cores=2
check "$src/data/traces/s3d/dme_mixed_4n" "$titan" --set node.cores=1 "${starts[@]}"
check "$tmp/s3d" "$titan" --set node.cores=2
check "$tmp/s3d" "$tmp/s3d/machine.toml" --set runtime.processor_start_ns=50000
check "$tmp/stencil" "$tmp/stencil/machine.toml" --set node.cores=1
check "$tmp/stencil" "$tmp/stencil/machine.toml" "${starts[@]}"
check "$tmp/random-dag" "$titan" --set node.cores=2 --set runtime.processor_start_ns=20000 --placement eft
check "$tmp/stencil" "$tmp/stencil/machine.toml" --fold 2 --set node.cores=4 "${perturb[@]}"
check "$tmp/s3d_mixed_4n.rrg" "$titan" --set node.cores=2 "${starts[@]}"
# The traced machine on shared cores (--set, or --traced-cores on 2015 Realm logs), fitted from the parts.
check "$tmp/s3d" traced --set node.cores=4
check "$circuit" traced --traced-cores 2
echo "each rank read only its own nodes' files, or its part of the packed file, in all of these"

# Legion Prof logs: each rank reads the logs of its own processes (prof_<N>.gz is process N's), builds its part of
# the graph with them and trades the machine's descriptions; one rank replays them as one process does. The bundled
# runs of two processes feed completion queues from both processes, which no split serves (the replay over ranks of
# the whole graph runs them on rank 0 alone): at two ranks the replay from parts is refused after the reading, and
# every rank reads the whole trace; so is the traced machine's fit, whose replays are refused alike.
READS=split
for t in "$src"/data/traces/legion-prof/*/; do
  check "${t%/}" "$titan"
done
prof2=$src/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1
check "$prof2" "$titan" --placement pool "${perturb[@]}"
check "$src/data/traces/legion-prof/ghost_mpi2_n4096_b4_s20_cpu2_util1" "$titan" --queue-order ready
for t in circuit_mpi2_medium_cpu2_util1 circuit_small_cpu2_util1; do
  check "$src/data/traces/legion-prof/$t" traced
done
observed=("$prof2" -m traced --against-observed)
for ranks in 1 2; do  # (its long report would cut check's pipe)
  mpi_same "circuit_mpi2 --against-observed" "$ranks" "${observed[@]}"
  mpi_same "circuit_mpi2 --against-observed --json" "$ranks" "${observed[@]}" --json
done
check "$prof2" "$titan" --set node.cores=1 "${starts[@]}"
echo "Legion Prof logs: each rank read its own processes' logs in all of these"

# What does not run from parts reads the whole trace on every rank, with the same output: the traced machine of
# Legion Prof logs with --traced-cores (it lists the start-ups every log measured, which one process puts together),
# a rank that would read no file.
READS=whole
check "$prof2" traced --traced-cores 2
check "$src/data/traces/legion-prof/ghost_mpi2_n4096_b4_s20_cpu2_util1" traced --traced-cores 1
# A rank whose model nodes hold no traced node (it would read no file, and maps the model from its files' records).
mpi_same "fork-join, model node 1 empty, at 3 ranks" 3 "${gap[@]}"
mpi_same "fork-join, model node 1 empty, 2 cores, at 3 ranks" 3 "${gap[@]}" --set node.cores=2

# A Legion Prof log that its rank cannot read (cut short): every rank stops, rank 0 naming that rank and the file.
mkdir "$tmp/prof_cut"
cp "$prof2/prof_0.gz" "$tmp/prof_cut/"
head -c 20000 "$prof2/prof_1.gz" > "$tmp/prof_cut/prof_1.gz"
if timeout 60 mpirun -np 2 "$mpibin" replay -q "$tmp/prof_cut" -m "$titan" > /dev/null 2> "$tmp/cut.err"; then
  echo "FAILED: a Legion Prof log cut short replayed"; exit 1
fi
grep -q "rank 1 of 2.*prof_1.gz" "$tmp/cut.err" || { echo "FAILED: the error names no rank and file:"; cat "$tmp/cut.err"; exit 1; }
! grep -q "every rank reads the whole trace" "$tmp/cut.err" || { echo "FAILED: the cut log was read whole"; exit 1; }
echo "a Legion Prof log its rank cannot read: every rank stops, naming it"

# Too many ranks: refused by name, with the count that can be used.
if timeout 60 mpirun -np 3 "$mpibin" replay -q "$src/data/traces/real/full_circuit_2node_p4_cpu2" -m "$titan" \
     > /dev/null 2> "$tmp/many.err"; then
  echo "FAILED: 3 ranks on 2 model nodes ran"; exit 1
fi
grep -q "3 ranks: .*at most 2 rank(s): the model has 2 node(s)" "$tmp/many.err" || { cat "$tmp/many.err"; exit 1; }
# A fold counts the model's nodes, not the trace's.
if timeout 60 mpirun -np 3 "$mpibin" replay -q "$tmp/stencil" -m "$tmp/stencil/machine.toml" --fold 2 \
     > /dev/null 2> "$tmp/many.err"; then
  echo "FAILED: 3 ranks on a 4-node trace folded onto 2 model nodes ran"; exit 1
fi
grep -q "3 ranks: .*at most 2 rank(s): the model has 2 node(s)" "$tmp/many.err" || { cat "$tmp/many.err"; exit 1; }
echo "3 ranks on 2 model nodes: refused"
echo "mpi replay: rank 0 prints what one process prints"
