import CourierWebSocket
import CourierWebSocketEngine

// Uses a symbol of the module so that the linker keeps it.
let connector: any WebSocketConnecting = WebSocketConnector()
print(type(of: connector))
