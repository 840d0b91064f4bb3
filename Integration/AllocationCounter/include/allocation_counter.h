#ifndef COURIER_ALLOCATION_COUNTER_H
#define COURIER_ALLOCATION_COUNTER_H

/// Heap allocations (malloc, calloc, realloc, the aligned variants) made by any thread of this
/// process since it started.
long courier_allocation_count(void);

#endif
