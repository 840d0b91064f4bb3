import CourierHTTP
import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct SessionWebSocketTests {
    static let url = URL(string: "wss://chat.example/ws")!

    static func session(
        _ connector: MockWebSocketConnector?,
        interceptor: (any RequestInterceptor)? = nil,
        monitor: RecordingEventMonitor = RecordingEventMonitor()
    ) -> SessionManager {
        var configuration = SessionConfiguration()
        configuration.webSocketConnector = connector
        return SessionManager(
            transport: MockTransport(),
            configuration: configuration,
            interceptor: interceptor,
            eventMonitors: [monitor]
        )
    }

    static func signing(_ token: String) -> RecordingInterceptor {
        RecordingInterceptor { request, _ in
            var request = request
            try request.headers.set(name: "Authorization", value: "Bearer \(token)")
            return request
        }
    }

    @Test func theAdaptersRunOnTheHandshake() async throws {
        let connector = MockWebSocketConnector()
        let socket = MockWebSocket(incoming: [.text("welcome")])
        connector.stub(url: Self.url.absoluteString, socket: socket)
        let interceptor = Self.signing("t0k3n")
        let session = Self.session(connector, interceptor: interceptor)

        let opened = try await session.webSocket(HTTPRequest(url: Self.url))

        #expect(connector.verify(.header("Authorization", "Bearer t0k3n"), called: 1) == nil)
        #expect(interceptor.adaptations.count == 1)
        var messages = opened.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("welcome"))
        try await opened.send(.text("hi"))
        #expect(socket.sentMessages == [.text("hi")])
        await session.shutdown()
    }

    @Test func aRefusedHandshakeWith401IsRetriedWithTheRefreshedToken() async throws {
        let connector = MockWebSocketConnector()
        connector.stub { request in
            guard request.headers["Authorization"] == "Bearer new" else {
                return .failure(.handshakeRefused(HTTPResponse(status: HTTPStatus(code: 401), url: request.url)))
            }
            return .success(MockWebSocket())
        }
        // Answers a 401 with a refresh to `new`, counting refreshes.
        let refresher = AuthenticationInterceptorTests.CountingAuthenticator(next: "new")
        let auth = AuthenticationInterceptor(
            authenticator: refresher,
            credential: AuthenticationInterceptorTests.Token(value: "old")
        )
        let monitor = RecordingEventMonitor()
        let session = Self.session(connector, interceptor: auth, monitor: monitor)

        let socket = try await session.webSocket(HTTPRequest(url: Self.url))

        #expect(connector.requests.map { $0.headers["Authorization"] } == ["Bearer old", "Bearer new"])
        #expect(refresher.refreshes.withLock { $0 } == 1)
        #expect(socket.handshakeResponse.status.code == 101)
        _ = await monitor.first(.webSocketOpened)
        #expect(monitor.events(of: .retryScheduled).count == 1)
        #expect(monitor.events(of: .requestStarted).count == 2)
        await session.shutdown()
    }

    @Test func aRefusalTheRetriersDoNotRetryCarriesTheResponse() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(refusingWith: 403)
        let interceptor = RecordingInterceptor()
        let session = Self.session(connector, interceptor: interceptor)

        let error = await #expect(throws: SessionError.self) {
            _ = try await session.webSocket(HTTPRequest(url: Self.url))
        }

        #expect(error?.kind == .webSocket)
        #expect(error?.response?.status.code == 403)
        #expect(error?.urlErrorCode == -1011)
        #expect(interceptor.retryQuestions.first?.failure.response?.status.code == 403)
        await session.shutdown()
    }

    @Test func aRedirectIsNotFollowedAndCarriesTheResponse() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(refusingWith: 302, headers: try HTTPHeaders(["Location": "wss://elsewhere.example/ws"]))
        let interceptor = RecordingInterceptor(retryDecisions: [.retry])
        let monitor = RecordingEventMonitor()
        let session = Self.session(connector, interceptor: interceptor, monitor: monitor)

        let error = await #expect(throws: SessionError.self) {
            _ = try await session.webSocket(HTTPRequest(url: Self.url))
        }

        guard case .redirectNotFollowed(let response)? = error?.webSocketError else {
            Issue.record("expected a redirect error, got \(String(describing: error))")
            return
        }
        #expect(response.headers["Location"] == "wss://elsewhere.example/ws")
        #expect(error?.response?.status.code == 302)
        #expect(connector.handshakes.count == 1)
        #expect(interceptor.retryQuestions.isEmpty)
        let closed = await monitor.first(.webSocketClosed)
        #expect(closed?.error?.kind == .webSocket)
        #expect(closed?.webSocketClose == nil)
        await session.shutdown()
    }

    @Test func aSessionWithoutAConnectorSaysSo() async throws {
        let session = Self.session(nil)

        let error = await #expect(throws: SessionError.self) {
            _ = try await session.webSocket(HTTPRequest(url: Self.url))
        }

        #expect(error?.kind == .webSocketUnavailable)
        #expect(error?.urlErrorCode == -1002)
        #expect(error?.message.contains("webSocketConnector") == true)
        await session.shutdown()
    }

    @Test func invalidatingTheSessionClosesItsWebSocketsWith1001() async throws {
        let connector = MockWebSocketConnector()
        let first = MockWebSocket()
        let second = MockWebSocket()
        connector.stub(times: 1, socket: second)
        connector.stub(times: 1, socket: first)
        let monitor = RecordingEventMonitor()
        let session = Self.session(connector, monitor: monitor)
        let a = try await session.webSocket(HTTPRequest(url: Self.url))
        let b = try await session.webSocket(HTTPRequest(url: Self.url))

        await session.invalidate(cancelingTasks: true)

        #expect(first.closeRequest?.code == .goingAway)
        #expect(second.closeRequest?.code == .goingAway)
        #expect(a.closeStatus?.code == .goingAway && b.closeStatus?.code == .goingAway)
        #expect(monitor.events(of: .webSocketClosed).map { $0.webSocketClose?.code } == [.goingAway, .goingAway])
        let late = await #expect(throws: SessionError.self) {
            _ = try await session.webSocket(HTTPRequest(url: Self.url))
        }
        #expect(late?.kind == .sessionInvalidated)
    }

    @Test func invalidatingWithoutCancellingLeavesWebSocketsOpen() async throws {
        let connector = MockWebSocketConnector()
        let socket = MockWebSocket()
        connector.stub(socket: socket)
        let session = Self.session(connector)
        let opened = try await session.webSocket(HTTPRequest(url: Self.url))

        await session.invalidate(cancelingTasks: false)

        #expect(socket.closeRequest == nil)
        #expect(opened.closeStatus == nil)
        await opened.close()
        #expect(socket.closeRequest?.code == .normalClosure)
    }

    @Test func theMonitorsSeeTheOpeningAndTheServersClose() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(
            socket: MockWebSocket(
                incoming: [.text("one")],
                then: .closedByServer(WebSocketClose(code: .goingAway, reason: "restart"))
            )
        )
        let monitor = RecordingEventMonitor()
        let session = Self.session(connector, monitor: monitor)

        let socket = try await session.webSocket(HTTPRequest(url: Self.url))
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }

        #expect(received == [.text("one")])
        let opened = await monitor.first(.webSocketOpened)
        #expect(opened?.response?.status.code == 101)
        #expect(opened?.request?.url == Self.url)
        let closed = await monitor.first(.webSocketClosed)
        #expect(closed?.webSocketClose == WebSocketClose(code: .goingAway, reason: "restart"))
        #expect(closed?.error == nil)
        #expect(closed?.taskIdentifier == opened?.taskIdentifier)
        await session.shutdown()
    }

    @Test func aFailedConnectionIsReportedWithItsError() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(
            socket: MockWebSocket(then: .failed(.protocolViolation(.protocolError, reason: "a masked frame")))
        )
        let monitor = RecordingEventMonitor()
        let session = Self.session(connector, monitor: monitor)
        let socket = try await session.webSocket(HTTPRequest(url: Self.url))

        await #expect(throws: WebSocketError.self) {
            for try await _ in socket.messages {}
        }

        let closed = await monitor.first(.webSocketClosed)
        #expect(closed?.error?.kind == .webSocket)
        #expect(closed?.webSocketClose?.code == .protocolError)
        await session.shutdown()
    }

    @Test func aFailedConnectionGoesToTheRetriers() async throws {
        let connector = MockWebSocketConnector()
        let socket = MockWebSocket()
        connector.stub(socket: socket)
        connector.stub(failing: .transport(TransportError(category: .cannotConnect, message: "refused")), times: 1)
        let interceptor = RecordingInterceptor(retryDecisions: [.retry])
        let session = Self.session(connector, interceptor: interceptor)

        _ = try await session.webSocket(HTTPRequest(url: Self.url))

        #expect(connector.handshakes.count == 2)
        #expect(interceptor.retryQuestions.first?.failure.error.kind == .transport(.cannotConnect))
        #expect(interceptor.adaptations.map(\.attempt.retryCount) == [0, 1])
        await session.shutdown()
    }

    @Test func aURLStringIsResolvedAgainstTheBaseURL() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(url: "https://api.example.com/v1/chat", socket: MockWebSocket())
        let manager = HTTPSessionManager(
            baseURL: URL(string: "https://api.example.com/v1"),
            session: Self.session(connector)
        )

        let socket = try await manager.webSocket(
            "chat",
            protocols: ["chat.v2"],
            headers: try HTTPHeaders(["Origin": "https://app.example"])
        )

        #expect(socket.handshakeResponse.status.code == 101)
        #expect(connector.handshakes.first?.configuration.subprotocols == ["chat.v2"])
        #expect(connector.verify(.header("Origin", "https://app.example"), called: 1) == nil)
        await manager.shutdown()
    }

    @Test func aURLThatIsNotAWebSocketURLIsRefusedBeforeAnyHandshake() async throws {
        let connector = MockWebSocketConnector()
        let session = Self.session(connector)

        let error = await #expect(throws: SessionError.self) {
            _ = try await session.webSocket(URL(string: "ftp://files.example/")!)
        }

        guard case .invalidRequest? = error?.webSocketError else {
            Issue.record("expected an invalid request, got \(String(describing: error))")
            return
        }
        #expect(connector.handshakes.isEmpty)
        await session.shutdown()
    }
}
