import CourierSessionEngine

// Uses a symbol of the module so that the linker keeps it; no session is started.
print(SessionConfiguration().maximumRedirects)
