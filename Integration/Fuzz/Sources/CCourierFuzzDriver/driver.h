#ifndef COURIER_FUZZ_DRIVER_H
#define COURIER_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs that keep their own `main`
/// (https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
