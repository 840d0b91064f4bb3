// Counts every heap allocation of the process that links this file, for the allocation-budget test.
//
// An executable that defines malloc and its relatives takes them over for every shared library
// loaded with it (glibc supports replacing malloc this way: "Replacing malloc" in the glibc manual),
// so libcurl's, OpenSSL's and the Swift runtime's allocations are counted too. Each function counts
// and forwards to glibc's own allocator through its exported __libc_* entry points, so memory from
// either side may be freed by the other and free() itself needs no replacement.
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#include "allocation_counter.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_long allocations;

static void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

long courier_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // The checks glibc's own posix_memalign makes (POSIX: a power of two multiple of sizeof(void *)).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
        return EINVAL;
    }
    count();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}

void *valloc(size_t size) {
    count();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count();
    return __libc_pvalloc(size);
}
