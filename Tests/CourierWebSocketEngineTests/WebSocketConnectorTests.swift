import CourierHTTP
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierWebSocketEngine

@Suite(.timeLimit(.minutes(1))) struct WebSocketConnectorTests {
    @Test func writesTheUpgradeRequestHead() async throws {
        let server = ScriptedWebSocketServer()
        try await server.transport.cookies?.setCookie(Cookie(name: "session", value: "abc", domain: "127.0.0.1"))
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["chat.v2", "chat.v1"]
        let socket = try await server.open("ws://127.0.0.1:8080/chat?room=1", configuration: configuration) {
            try? $0.headers.add(name: "Authorization", value: "Bearer abc")
            try? $0.headers.add(name: "Upgrade", value: "h2c")  // the handshake's own field wins
        }
        let lines = server.writtenHead.components(separatedBy: "\r\n")
        #expect(lines.first == "GET /chat?room=1 HTTP/1.1")
        #expect(lines.contains("Host: 127.0.0.1:8080"))
        #expect(lines.contains("Upgrade: websocket"))
        #expect(!lines.contains("Upgrade: h2c"))
        #expect(lines.contains("Connection: Upgrade"))
        #expect(lines.contains("Sec-WebSocket-Version: 13"))
        #expect(lines.contains("Sec-WebSocket-Protocol: chat.v2, chat.v1"))
        #expect(lines.contains("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"))
        #expect(lines.contains("Authorization: Bearer abc"))
        #expect(lines.contains("Cookie: session=abc"))
        #expect(server.writtenHead.hasSuffix("\r\n\r\n"))
        let key = try #require(server.writtenKey)
        #expect(Data(base64Encoded: key)?.count == 16)
        #expect(
            server.transport.rawConnectionRequests.map(\.url.absoluteString) == ["http://127.0.0.1:8080/chat?room=1"]
        )
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test func drawsAFreshKeyForEachHandshake() async throws {
        var keys: Set<String> = []
        for _ in 0..<3 {
            let server = ScriptedWebSocketServer()
            let socket = try await server.open()
            keys.insert(try #require(server.writtenKey))
            server.connection.finish()
            _ = await drain(socket.messages)
        }
        #expect(keys.count == 3)
    }

    @Test func storesTheCookiesOfTheUpgradeResponse() async throws {
        let server = ScriptedWebSocketServer()
        let socket = try await server.open(extraFields: ["Set-Cookie: token=xyz; Path=/; HttpOnly"])
        let cookies = try await server.transport.cookies?.allCookies() ?? []
        #expect(cookies.map(\.name) == ["token"])
        #expect(cookies.first?.value == "xyz")
        #expect(cookies.first?.isHTTPOnly == true)
        #expect(socket.handshakeResponse.headers["Set-Cookie"] == "token=xyz; Path=/; HttpOnly")
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    /// Answers the handshake with `head` (the key is not looked at) and returns the error.
    static func failure(answering head: String) async throws -> (WebSocketError?, MockRawConnection) {
        let transport = MockTransport()
        let connection = MockRawConnection(delivering: Array(head.utf8), chunkSize: 7, ending: .end)
        transport.stubRawConnection(url: "http://127.0.0.1/chat", connection)
        let error = await webSocketError {
            _ = try await WebSocketConnector().connect(
                HTTPRequest(url: try #require(URL(string: "ws://127.0.0.1/chat"))),
                configuration: WebSocketConfiguration(),
                over: transport
            )
        }
        return (error, connection)
    }

    @Test func refusedUpgradeCarriesTheResponse() async throws {
        let (error, connection) = try await Self.failure(
            answering: "HTTP/1.1 403 Forbidden\r\nContent-Length: 7\r\n\r\nrefused"
        )
        guard case .handshakeRefused(let response) = error else {
            Issue.record("not handshakeRefused: \(String(describing: error))")
            return
        }
        #expect(response.status.code == 403)
        #expect(response.headers["Content-Length"] == "7")
        #expect(connection.isClosed)
    }

    @Test func redirectIsNotFollowed() async throws {
        let (error, _) = try await Self.failure(answering: "HTTP/1.1 302 Found\r\nLocation: /echo\r\n\r\n")
        guard case .redirectNotFollowed(let response) = error else {
            Issue.record("not redirectNotFollowed: \(String(describing: error))")
            return
        }
        #expect(response.headers["Location"] == "/echo")
    }

    @Test func wrongAcceptFailsWithoutAFrame() async throws {
        let (error, connection) = try await Self.failure(
            answering: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        )
        guard case .invalidHandshakeResponse(.acceptHeader, let response) = error else {
            Issue.record("not an accept failure: \(String(describing: error))")
            return
        }
        #expect(response.status.code == 101)
        // Only the request head went out.
        #expect(connection.writes.count == 1)
        #expect(connection.isClosed)
    }

    @Test(arguments: [
        "HTTP/2 101\r\n\r\n", "HTTP/1.1 1x1 Odd\r\n\r\n", "garbage\r\n\r\n",
        "HTTP/1.1 101 OK\r\n folded: value\r\n\r\n", "HTTP/1.1 101 OK\r\nno colon here\r\n\r\n",
    ])
    func garbageHeadIsAProtocolViolation(head: String) async throws {
        let (error, _) = try await Self.failure(answering: head)
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .protocolViolation)
    }

    @Test func headLargerThanTheLimitFails() async throws {
        let head =
            "HTTP/1.1 101 OK\r\n" + String(repeating: "X-Filler: \(String(repeating: "a", count: 100))\r\n", count: 700)
        let (error, _) = try await Self.failure(answering: head)
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .protocolViolation)
        #expect(transportError.message.contains("larger than 65536"))
    }

    @Test func serverEndingBeforeTheAnswerIsConnectionLost() async throws {
        let (error, _) = try await Self.failure(answering: "HTTP/1.1 101 Switch")
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .connectionLost)
    }

    // The connection never answers, so only the request's timeout can end the handshake; no
    // wall-clock bound here (the unit suites run in parallel on a busy pool), the time limit
    // stands in for a hang.
    @Test(.timeLimit(.minutes(1))) func handshakeHonoursTheRequestTimeout() async throws {
        let transport = MockTransport()
        let connection = MockRawConnection()  // never answers
        transport.stubRawConnection(url: "http://127.0.0.1/chat", connection)
        var request = HTTPRequest(url: try #require(URL(string: "ws://127.0.0.1/chat")))
        request.timeout = .milliseconds(100)
        let error = await webSocketError {
            _ = try await WebSocketConnector().connect(
                request,
                configuration: WebSocketConfiguration(),
                over: transport
            )
        }
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .timedOut)
        #expect(connection.isClosed)
    }

    @Test func transportFailureIsWrapped() async throws {
        let transport = MockTransport()
        transport.stubRawConnection(
            url: "https://127.0.0.1/chat",
            failure: TransportError(category: .serverTrustFailed, message: "pin refused")
        )
        let error = await webSocketError {
            _ = try await WebSocketConnector().connect(
                HTTPRequest(url: try #require(URL(string: "wss://127.0.0.1/chat"))),
                configuration: WebSocketConfiguration(),
                over: transport
            )
        }
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .serverTrustFailed)
    }

    @Test func sha1MatchesRFC6455Example() {
        #expect(
            WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==", sha1: SHA1Digest.digest)
                == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        )
    }
}
