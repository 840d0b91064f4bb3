import CourierImageDownloader

// Uses a symbol of the module so that the linker keeps it.
print(ImageDownloadCachePolicy.cacheOnly != .useCache)
