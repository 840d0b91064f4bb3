#ifndef CCOURIER_ZLIB_SHIM_H
#define CCOURIER_ZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 is a macro over deflateInit2_ that Swift cannot call; this passes the same version
// and struct size the macro would.
static inline int courier_deflate_init2(z_streamp stream, int level, int windowBits) {
    return deflateInit2_(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                         (int)sizeof(z_stream));
}

// inflateInit2 is a macro too: for reading compressed bodies back (the tests check round trips).
static inline int courier_inflate_init2(z_streamp stream, int windowBits) {
    return inflateInit2_(stream, windowBits, ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
