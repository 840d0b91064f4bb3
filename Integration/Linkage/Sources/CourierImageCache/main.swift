import CourierImageCache

// Uses a symbol of the module so that the linker keeps it.
let cache = AutoPurgingImageCache<PixelImage>()
print(cache.memoryCapacity)
