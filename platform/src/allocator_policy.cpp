#include "platform/allocator_policy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rr::platform {

void give_large_arrays_their_own_pages() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kOwnPagesFrom));
#endif
}

}  // namespace rr::platform
