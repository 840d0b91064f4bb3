import CourierWebSocket

// Uses a symbol of the module so that the linker keeps it.
print(WebSocketCloseCode.normalClosure)
