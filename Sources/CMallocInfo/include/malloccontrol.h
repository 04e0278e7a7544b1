#ifndef REMINDERD_MALLOCCONTROL_H
#define REMINDERD_MALLOCCONTROL_H

/// One malloc arena for the whole process (mallopt(M_ARENA_MAX, 1)). The daemon's queue runs on
/// whichever Dispatch worker thread is free, and glibc gives each new thread an arena of its
/// own: a large reply built on one thread left its peak free in that thread's arena, where no
/// later request (served on another thread) reused it and trimming did not give it back.
/// Returns mallopt's result: 1 when set.
int reminderd_malloc_single_arena(void);

/// Gives the free pages malloc holds back to the kernel (malloc_trim(0)). Returns 1 when some
/// memory was released.
int reminderd_malloc_trim(void);

#endif
