import CourierHTTP
import CourierSessionCore
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct MockWebSocketTests {
    static let url = URL(string: "wss://chat.example/ws")!

    @Test func scriptedMessagesComeFirstThenTheServersClose() async throws {
        let socket = MockWebSocket(
            incoming: [.text("one"), .binary([1, 2])],
            then: .closedByServer(WebSocketClose(code: .goingAway, reason: "restart"))
        )

        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }

        #expect(received == [.text("one"), .binary([1, 2])])
        #expect(socket.closeStatus == WebSocketClose(code: .goingAway, reason: "restart"))
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
        #expect(socket.sentMessages.isEmpty)
    }

    @Test func aPushedMessageReachesAWaitingReader() async throws {
        let socket = MockWebSocket()
        let reader = Task {
            var received: [WebSocketMessage] = []
            for try await message in socket.messages { received.append(message) }
            return received
        }

        socket.receive(.text("later"))
        socket.closeFromServer(code: .normalClosure)

        #expect(try await reader.value == [.text("later")])
        #expect(socket.closeStatus?.code == .normalClosure)
    }

    @Test func aFailureIsThrownAfterTheWaitingMessages() async throws {
        let socket = MockWebSocket(incoming: [.text("one")])
        socket.fail(.messageTooBig(limit: 10))
        var iterator = socket.messages.makeAsyncIterator()

        #expect(try await iterator.next() == .text("one"))
        await #expect(throws: WebSocketError.self) { _ = try await iterator.next() }
        #expect(socket.closeStatus?.code == .messageTooBig)
    }

    @Test func theSendsPingsAndTheAppsCloseAreRecorded() async throws {
        let socket = MockWebSocket(pingRoundTrip: .milliseconds(7))

        try await socket.send(.text("a"))
        try await socket.send(.binary([9]))
        #expect(try await socket.ping() == .milliseconds(7))
        await socket.close(code: .goingAway, reason: "bye")
        await socket.close()

        #expect(socket.sentMessages == [.text("a"), .binary([9])])
        #expect(socket.sentTexts == ["a"])
        #expect(socket.pingCount == 1)
        #expect(socket.closeRequest == WebSocketClose(code: .goingAway, reason: "bye"))
        #expect(socket.closeStatus?.code == .goingAway)
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test func theConnectorAnswersFromTheNewestMatchingStubAndRecordsHandshakes() async throws {
        let connector = MockWebSocketConnector()
        let general = MockWebSocket()
        let chat = MockWebSocket()
        connector.stub(socket: general)
        connector.stub(matching: .path("/ws") && .header("Authorization"), times: 1, socket: chat)
        var request = HTTPRequest(url: Self.url)
        try request.headers.set(name: "Authorization", value: "Bearer a")
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["v1"]

        let first = try await connector.connect(request, configuration: configuration, over: UnimplementedTransport())
        let second = try await connector.connect(request, configuration: configuration, over: UnimplementedTransport())

        #expect(first as? MockWebSocket === chat)
        #expect(second as? MockWebSocket === general)
        #expect(connector.handshakes.map(\.configuration.subprotocols) == [["v1"], ["v1"]])
        #expect(connector.verify(.header("Authorization", "Bearer a"), called: 2) == nil)
        #expect(connector.verify(.header("Authorization", "Bearer b"), called: 1) != nil)
    }

    @Test func theConnectorRefusesAsTheEngineDoes() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(matching: .path("/old"), refusingWith: 301, headers: try HTTPHeaders(["Location": "/new"]))
        connector.stub(matching: .path("/ws"), refusingWith: 401)

        do {
            _ = try await connector.connect(
                HTTPRequest(url: URL(string: "wss://chat.example/old")!),
                configuration: WebSocketConfiguration(),
                over: UnimplementedTransport()
            )
            Issue.record("a redirect opened a connection")
        } catch {
            guard case .redirectNotFollowed(let response) = error else { throw error }
            #expect(response.headers["Location"] == "/new")
        }
        do {
            _ = try await connector.connect(
                HTTPRequest(url: Self.url),
                configuration: WebSocketConfiguration(),
                over: UnimplementedTransport()
            )
            Issue.record("a refusal opened a connection")
        } catch {
            guard case .handshakeRefused(let response) = error else { throw error }
            #expect(response.status.code == 401)
        }
    }

    @Test func anUnstubbedHandshakeFailsNamingTheURL() async throws {
        let connector = MockWebSocketConnector()

        do {
            _ = try await connector.connect(
                HTTPRequest(url: Self.url),
                configuration: WebSocketConfiguration(),
                over: UnimplementedTransport()
            )
            Issue.record("an unstubbed handshake opened a connection")
        } catch {
            guard case .transport(let failure) = error else { throw error }
            #expect(failure.message.contains(Self.url.absoluteString))
        }
    }

    @Test func mockSessionOpensStubbedWebSocketsResolvedAgainstItsBase() async throws {
        let session = MockSession(baseURL: URL(string: "https://chat.example/v1"))
        let socket = MockWebSocket(incoming: [.text("hi")])
        session.webSocketConnector.stub(url: "https://chat.example/v1/rooms/1", socket: socket)

        let opened = try await session.webSocket("rooms/1")
        var iterator = opened.messages.makeAsyncIterator()

        #expect(try await iterator.next() == .text("hi"))
        let refused = await #expect(throws: SessionError.self) { _ = try await session.webSocket("rooms/2") }
        #expect(refused?.kind == .transport(.other))
    }
}
