#define _GNU_SOURCE
#include <dlfcn.h>
#include "allocation_counter.h"
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

#define TRACES 8
#define DEPTH 24

static atomic_int armed;
static pthread_key_t mark;
static atomic_long allocations;
static atomic_long frees;
static void *traces[TRACES][DEPTH];
static int depths[TRACES];
// backtrace() may allocate (loading libgcc_s on first use): never counted or traced within.
static _Thread_local int inside;

static int on_marked_thread(void) {
    return atomic_load_explicit(&armed, memory_order_relaxed) && !inside && pthread_getspecific(mark) != NULL;
}

static void note_allocation(void) {
    if (!on_marked_thread()) return;
    long index = atomic_fetch_add(&allocations, 1);
    if (index < TRACES) {
        inside = 1;
        depths[index] = backtrace(traces[index], DEPTH);
        inside = 0;
    }
}

void noiseclock_allocations_arm(unsigned int key) {
    void *warm[4];
    inside = 1;
    backtrace(warm, 4);
    inside = 0;
    mark = (pthread_key_t)key;
    memset(depths, 0, sizeof depths);
    atomic_store(&allocations, 0);
    atomic_store(&frees, 0);
    atomic_store(&armed, 1);
}

void noiseclock_allocations_disarm(void) { atomic_store(&armed, 0); }
long noiseclock_allocations_count(void) { return atomic_load(&allocations); }
long noiseclock_allocations_frees(void) { return atomic_load(&frees); }

int noiseclock_allocations_trace(int index, void **frames, int max) {
    if (index < 0 || index >= TRACES || index >= atomic_load(&allocations)) return 0;
    int count = depths[index] < max ? depths[index] : max;
    for (int i = 0; i < count; i++) frames[i] = traces[index][i];
    return count;
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL && on_marked_thread()) atomic_fetch_add(&frees, 1);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    note_allocation();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return 22;  // EINVAL
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return 12;  // ENOMEM
    *out = pointer;
    return 0;
}

void *valloc(size_t size) {
    note_allocation();
    return __libc_valloc(size);
}

int noiseclock_allocations_symbol(void *frame, char *out, int size) {
    Dl_info info;
    if (size <= 0 || dladdr(frame, &info) == 0) return 0;
    if (info.dli_sname != NULL && strcmp(info.dli_sname, "malloc") != 0) {
        snprintf(out, (size_t)size, "%s", info.dli_sname);
    } else {
        // Not exported (the test binary's own functions): file and offset, for addr2line -f -e.
        snprintf(out, (size_t)size, "%s+0x%lx", info.dli_fname, (unsigned long)((char *)frame - (char *)info.dli_fbase));
    }
    return 1;
}
