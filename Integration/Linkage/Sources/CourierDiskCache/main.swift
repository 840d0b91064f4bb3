import CourierDiskCache

// Uses a symbol of the module so that the linker keeps it.
print(CacheDirectory.userCacheDirectory(environment: ["HOME": "/home/probe"]) ?? "none")
