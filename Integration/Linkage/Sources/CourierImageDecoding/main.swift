import CourierImageDecoding
import FoundationEssentials

// Uses a symbol of the module so that the linker keeps it.
print((try? ImageDecoder().decode(Data([0x89, 0x50]))) == nil)
