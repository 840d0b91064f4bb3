#ifndef CCOURIER_ZSTD_SHIM_H
#define CCOURIER_ZSTD_SHIM_H

#include <zstd.h>
#include <zstd_errors.h>

#endif
