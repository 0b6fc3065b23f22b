#ifndef NOISECLOCK_ALLOCATION_COUNTER_H
#define NOISECLOCK_ALLOCATION_COUNTER_H

// Counts malloc-family calls made on threads marked by a pthread key (the audio thread's
// AudioThreadMark) while armed. The test binary's own malloc, calloc, realloc, free,
// posix_memalign, aligned_alloc, memalign and valloc forward to glibc's __libc_* entry points:
// the executable's definitions take precedence over libc's for the whole process (no LD_PRELOAD).

/// Starts counting on threads where pthread_getspecific(key) is not NULL; zeroes the counts.
void noiseclock_allocations_arm(unsigned int key);
/// Stops counting.
void noiseclock_allocations_disarm(void);
/// Allocations (malloc, calloc, realloc, memalign, ...) counted since arm.
long noiseclock_allocations_count(void);
/// Frees counted since arm.
long noiseclock_allocations_frees(void);
/// The return addresses of the index-th allocation counted (up to max; 0: none recorded).
int noiseclock_allocations_trace(int index, void **frames, int max);

/// The name of the function holding `frame` (dladdr), or its file and offset when the name is not
/// exported, copied into `out`; 0 when unknown.
int noiseclock_allocations_symbol(void *frame, char *out, int size);

#endif
