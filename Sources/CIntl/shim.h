// glibc's gettext (libintl.h), which Swift's Glibc module leaves out; part of libc itself, so
// there is nothing to link.
#include <libintl.h>
