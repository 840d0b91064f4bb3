import CourierContentDecoding

// Uses a symbol of the module so that the linker keeps it (and with it zlib, brotli and zstd).
print((try? ContentDecoder(codings: [.gzip, .brotli, .zstd]))?.codings.count ?? 0)
