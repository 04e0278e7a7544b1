#ifndef REMINDERD_FUZZER_DRIVER_H
#define REMINDERD_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs with their own main (compiler-rt, LLVM ≥ 11). SwiftPM links an
/// executable's main over libFuzzer's, so reminder-fuzz starts the fuzzer through this; it exists
/// only in binaries linked with -sanitize=fuzzer, which is when reminder-fuzz refers to it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
