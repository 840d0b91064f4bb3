import CourierCurl
import CourierHTTP
import CourierTransport
import CourierWebSocket
import CourierWebSocketEngine
import Foundation
import Testing

/// `WebSocketConnector` over `CurlTransport` against every path of `ws_server.py` (the `websockets`
/// package, strict RFC 6455 and 7692), over ws and over wss.
@Suite struct WebSocketEchoTests {
    static var hasServers: Bool { WebSocketTestServers.ws != nil && WebSocketTestServers.wss != nil }
    typealias Servers = WebSocketTestServers

    static var noCompression: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.perMessageDeflate = nil
        return configuration
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func echoesTextAndBinaryCompressed(secure: Bool) async throws {
        try await Servers.withConnection(secure: secure, path: "/echo") { socket in
            #expect(socket.handshakeResponse.status.code == 101)
            #expect(socket.agreement.deflate != nil)
            let big = String(repeating: "permessage-deflate keeps the window. ", count: 3000)
            try await socket.send(.text("hello"))
            try await socket.send(.binary([0, 1, 2, 255]))
            try await socket.send(.text(big))
            try await socket.send(.text(big))
            try await socket.send(.text(""))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text("hello"))
            #expect(try await iterator.next() == .binary([0, 1, 2, 255]))
            #expect(try await iterator.next() == .text(big))
            #expect(try await iterator.next() == .text(big))
            #expect(try await iterator.next() == .text(""))
            await socket.close()
            #expect(socket.closeStatus == WebSocketClose(code: .normalClosure))
            #expect(try await iterator.next() == nil)
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [(false, false), (true, false), (false, true), (true, true)]
    )
    func negotiatesNoContextTakeoverAndWindowBits(clientFlags: Bool, serverFlags: Bool) async throws {
        var configuration = WebSocketConfiguration()
        var offer = WebSocketDeflateOffer()
        offer.clientNoContextTakeover = clientFlags
        offer.serverNoContextTakeover = serverFlags
        offer.serverMaxWindowBits = serverFlags ? 9 : nil
        configuration.perMessageDeflate = offer
        try await Servers.withConnection(secure: false, path: "/echo", configuration: configuration) { socket in
            let deflate = try #require(socket.agreement.deflate)
            #expect(deflate.clientNoContextTakeover == clientFlags)
            #expect(deflate.serverNoContextTakeover == serverFlags)
            #expect(deflate.serverMaxWindowBits == (serverFlags ? 9 : 15))
            var iterator = socket.messages.makeAsyncIterator()
            for round in 0..<4 {
                let text = String(repeating: "round \(round) of the same words; ", count: 200)
                try await socket.send(.text(text))
                #expect(try await iterator.next() == .text(text))
            }
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func echoesWithoutCompressionWhenDeclined(secure: Bool) async throws {
        try await Servers.withConnection(secure: secure, path: "/echo-no-compression") { socket in
            #expect(socket.agreement.deflate == nil)
            #expect(socket.handshakeResponse.headers["Sec-WebSocket-Extensions"] == nil)
            let payload = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }  // 3 fragments
            try await socket.send(.binary(payload))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .binary(payload))
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func selectsTheOfferedSubprotocol(secure: Bool) async throws {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["chat.v1", "chat.v2"]
        try await Servers.withConnection(secure: secure, path: "/subprotocol", configuration: configuration) { socket in
            #expect(socket.agreement.subprotocol == "chat.v2")
            var iterator = socket.messages.makeAsyncIterator()
            let selection = try await iterator.next()
            #expect(selection == .text("chat.v2"))
        }
        try await Servers.withConnection(secure: secure, path: "/subprotocol") { socket in
            #expect(socket.agreement.subprotocol == nil)
            var iterator = socket.messages.makeAsyncIterator()
            let selection = try await iterator.next()
            #expect(selection == .text(""))
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [(false, 1000), (true, 1001), (false, 1011), (true, 4000)]
    )
    func serverCloseEndsTheMessagesWithItsCode(secure: Bool, code: Int) async throws {
        try await Servers.withConnection(secure: secure, path: "/close/\(code)") { socket in
            var received: [WebSocketMessage] = []
            for try await message in socket.messages { received.append(message) }
            #expect(received.isEmpty)
            #expect(socket.closeStatus?.code?.rawValue == UInt16(code))
            #expect(socket.closeStatus?.reason == "closing with \(code)")
            let error = await Self.webSocketError { try await socket.send(.text("late")) }
            guard case .closedByServer(let closeCode, _) = error else {
                Issue.record("not closedByServer: \(String(describing: error))")
                return
            }
            #expect(closeCode.rawValue == UInt16(code))
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func answersTheServersPingAndPingsBack(secure: Bool) async throws {
        try await Servers.withConnection(secure: secure, path: "/ping") { socket in
            var iterator = socket.messages.makeAsyncIterator()
            guard case .text(let report)? = try await iterator.next() else {
                Issue.record("no report")
                return
            }
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
            #expect(json["pong"] as? String == "courier-ping")
            let roundTrip = try await socket.ping()
            #expect(roundTrip > .zero && roundTrip < IntegrationEnvironment.bound(.seconds(5)))
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func sendsTheRequestsHeadersAndCookies(secure: Bool) async throws {
        let transport = CurlTestServers.transport()
        defer { Task { await transport.shutdown() } }
        let url = try Servers.url(secure: secure, path: "/headers?k=v")
        try await transport.cookieStore?.setCookie(Cookie(name: "jar", value: "42", domain: "127.0.0.1"))
        var request = HTTPRequest(url: url)
        try request.headers.add(name: "Authorization", value: "Bearer abc")
        try request.headers.add(name: "X-Courier-Test", value: "yes")
        let socket = try await WebSocketConnector().connect(
            request,
            configuration: WebSocketConfiguration(),
            over: transport
        )
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let report)? = try await iterator.next() else {
            Issue.record("no report")
            return
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        #expect(json["path"] as? String == "/headers?k=v")
        let headers = (json["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
        #expect(headers.contains("Authorization: Bearer abc"))
        #expect(headers.contains("X-Courier-Test: yes"))
        #expect(headers.contains("Upgrade: websocket"))
        #expect(headers.contains("Sec-WebSocket-Version: 13"))
        #expect((json["cookies"] as? [String: String])?["jar"] == "42")
        await socket.close()
        await transport.shutdown()
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func refusedAuthCarriesThe401AndABearerPasses(secure: Bool) async throws {
        let error = await Self.webSocketError {
            try await Servers.withConnection(secure: secure, path: "/auth") { _ in }
        }
        guard case .handshakeRefused(let response) = error else {
            Issue.record("not handshakeRefused: \(String(describing: error))")
            return
        }
        #expect(response.status.code == 401)
        #expect(response.headers["WWW-Authenticate"] == "Bearer realm=\"courier\"")
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: try Servers.url(secure: secure, path: "/auth"))
        try request.headers.add(name: "Authorization", value: "Bearer good")
        let socket = try await WebSocketConnector().connect(
            request,
            configuration: WebSocketConfiguration(),
            over: transport
        )
        try await socket.send(.text("authorised"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("authorised"))
        await socket.close()
        await transport.shutdown()
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [(false, "/redirect?k=v", 302), (true, "/refuse", 403), (false, "/nowhere", 404)]
    )
    func redirectsAndRefusalsAreTypedErrors(secure: Bool, path: String, status: Int) async throws {
        let error = await Self.webSocketError {
            try await Servers.withConnection(secure: secure, path: path) { _ in }
        }
        switch error {
        case .redirectNotFollowed(let response):
            #expect(status == 302)
            #expect(response.status.code == 302)
            #expect(response.headers["Location"] == "/echo?k=v")
        case .handshakeRefused(let response):
            #expect(response.status.code == status)
        default:
            Issue.record("unexpected: \(String(describing: error))")
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func floodIsReadInOrderUnderBackpressure(secure: Bool) async throws {
        var configuration = WebSocketConfiguration()
        configuration.readHighWaterMark = 8
        try await Servers.withConnection(secure: secure, path: "/flood?n=3000", configuration: configuration) {
            socket in
            var count = 0
            for try await message in socket.messages {
                guard case .text(let text) = message else { continue }
                #expect(Int(text) == count, "\(text)")
                count += 1
                if count % 500 == 0 { try await Task.sleep(for: .milliseconds(20)) }  // a slow reader
            }
            #expect(count == 3000)
            #expect(socket.closeStatus == WebSocketClose(code: .normalClosure, reason: "sent 3000"))
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func closeTimeoutDropsAServerThatNeverAnswers(secure: Bool) async throws {
        var configuration = WebSocketConfiguration()
        configuration.closeTimeout = .milliseconds(300)
        try await Servers.withConnection(secure: secure, path: "/slow-close", configuration: configuration) { socket in
            var iterator = socket.messages.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first == .text("slow-close"))
            let start = ContinuousClock.now
            await socket.close()
            #expect(ContinuousClock.now - start < .seconds(4))
            #expect(socket.closeStatus == WebSocketClose(code: .abnormalClosure))
            let error = await Self.webSocketError { _ = try await iterator.next() }
            guard case .closeTimedOut = error else {
                Issue.record("not closeTimedOut: \(String(describing: error))")
                return
            }
        }
    }

    @Test(
        .enabled(if: hasServers, "COURIER_WS_URL, COURIER_WSS_URL or TEST_CA_FILE not set"),
        arguments: [false, true]
    )
    func receivesABigMessageAndItsLimit(secure: Bool) async throws {
        let size = 5 << 20
        try await Servers.withConnection(secure: secure, path: "/big?size=\(size)") { socket in
            var iterator = socket.messages.makeAsyncIterator()
            guard case .binary(let bytes)? = try await iterator.next() else {
                Issue.record("no binary message")
                return
            }
            #expect(bytes.count == size)
            #expect(bytes.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
        }
        var configuration = WebSocketConfiguration()
        configuration.maximumMessageSize = 1 << 20
        try await Servers.withConnection(secure: secure, path: "/big?size=\(size)", configuration: configuration) {
            socket in
            let error = await Self.webSocketError { for try await _ in socket.messages {} }
            guard case .messageTooBig(let limit) = error else {
                Issue.record("not messageTooBig: \(String(describing: error))")
                return
            }
            #expect(limit == 1 << 20)
        }
    }

    static func webSocketError(_ body: () async throws -> Void) async -> WebSocketError? {
        do {
            try await body()
            return nil
        } catch let error as WebSocketError {
            return error
        } catch {
            Issue.record("not a WebSocketError: \(error)")
            return nil
        }
    }
}
