#ifndef CCOURIER_BROTLI_SHIM_H
#define CCOURIER_BROTLI_SHIM_H

// The decoder only: the encoder is a separate library (libbrotlienc) that only the tests link.
#include <brotli/decode.h>

#endif
