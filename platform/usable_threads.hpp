// How many threads "all cores" means for this process: the cores it may run on, not the machine's. Under mpirun's
// binding, taskset or a container's cpuset a process may run on fewer cores than the machine has; asking oneTBB
// for more threads than that only makes them take turns (and oneTBB warns on standard error).
#pragma once

namespace rr::platform {

// At least 1: the cores this process may run on, as oneTBB counts them for its default arena.
unsigned usable_threads();

// `asked` when it is not 0, else usable_threads(): what a `-j 0` ("all cores") option means.
inline unsigned threads_or_all(unsigned asked) { return asked != 0 ? asked : usable_threads(); }

}  // namespace rr::platform
