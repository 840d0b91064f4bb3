import CourierCurl
import CourierHTTP
import CourierTransport
import CourierWebSocket
import CourierWebSocketEngine
import Foundation
import Testing

/// The WebSocket servers of `ci/servers` (`ws_server.py`, `ws_fault_server.py`) and helpers to
/// open connections to them.
enum WebSocketTestServers {
    static var ws: URL? { CurlTestServers.url("COURIER_WS_URL") }
    static var wss: URL? { CurlTestServers.caFile == nil ? nil : CurlTestServers.url("COURIER_WSS_URL") }
    static var fault: URL? { CurlTestServers.url("COURIER_WS_FAULT_URL") }

    /// `path` (with its query) on the ws or wss server.
    static func url(secure: Bool, path: String) throws -> URL {
        let base = try #require(secure ? wss : ws)
        return try #require(URL(string: base.absoluteString + path))
    }

    /// Opens `path`, runs `body`, and shuts the transport down whatever happens.
    static func withConnection(
        secure: Bool,
        path: String,
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        adjust: (inout CurlTransport.Configuration) -> Void = { _ in },
        _ body: (any WebSocketConnection) async throws -> Void
    ) async throws {
        let transport = CurlTestServers.transport(adjust)
        do {
            var request = HTTPRequest(url: try url(secure: secure, path: path))
            request.timeout = .seconds(20)
            let socket = try await WebSocketConnector().connect(request, configuration: configuration, over: transport)
            do {
                try await body(socket)
            } catch {
                await socket.close()
                throw error
            }
            await socket.close()
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }
}
