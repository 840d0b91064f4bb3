import CourierSerialization

// Uses a symbol of the module so that the linker keeps it.
print(PercentEscaping.escape("a b&c"))
