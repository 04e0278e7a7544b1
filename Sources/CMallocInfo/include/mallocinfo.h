#ifndef REMINDERD_MALLOCINFO_H
#define REMINDERD_MALLOCINFO_H
#include <stddef.h>

/// Bytes currently allocated from the malloc heap (glibc's mallinfo2().uordblks plus mmapped
/// blocks), for the benchmark's bytes-per-reminder figures.
size_t reminderd_heap_bytes_in_use(void);

#endif
