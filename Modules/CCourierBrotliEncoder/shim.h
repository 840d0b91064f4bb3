#ifndef CCOURIER_BROTLI_ENCODER_SHIM_H
#define CCOURIER_BROTLI_ENCODER_SHIM_H

// The encoder, for the decoder's tests: they make their vectors with the reference library.
#include <brotli/encode.h>

#endif
