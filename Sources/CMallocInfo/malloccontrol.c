#include "malloccontrol.h"
#include <malloc.h>

int reminderd_malloc_single_arena(void) { return mallopt(M_ARENA_MAX, 1); }

int reminderd_malloc_trim(void) { return malloc_trim(0); }
