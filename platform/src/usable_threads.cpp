#include "platform/usable_threads.hpp"

#include <algorithm>

#include <tbb/info.h>

namespace rr::platform {

unsigned usable_threads() { return static_cast<unsigned>(std::max(1, tbb::info::default_concurrency())); }

}  // namespace rr::platform
