import CourierRequestCompression

// Uses a symbol of the module so that the linker keeps it.
print(RequestCompressor().minimumBodySize)
