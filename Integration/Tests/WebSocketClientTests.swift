import Courier
import CourierCurl
import CourierLocking
import CourierSessionEngine
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

/// `CourierClient.webSocket` against the loopback WebSocket server (Integration/servers/ws_server.py):
/// the session's interceptors, cookies and shutdown apply to the handshake and the connection.
@Suite(.timeLimit(.minutes(1))) struct WebSocketClientTests {
    static var server: URL? { ProcessInfo.processInfo.environment["COURIER_WS_URL"].flatMap(URL.init(string:)) }
    static var hasServer: Bool { server != nil }
    static var hasTLSServer: Bool {
        ProcessInfo.processInfo.environment["COURIER_WSS_URL"] != nil && CurlTestServers.caFile != nil
    }

    struct Token: AuthenticationCredential, Equatable {
        var value: String
        var requiresRefresh: Bool { false }
    }

    /// Refreshes any token to `good`, the one `/auth` accepts.
    final class Refresher: Authenticator {
        let refreshes = Lock(0)

        func apply(_ credential: Token, to request: inout HTTPRequest) throws {
            try request.headers.set(name: "Authorization", value: "Bearer \(credential.value)")
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            return Token(value: "good")
        }

        func didRequest(
            _ request: HTTPRequest,
            with response: HTTPResponse,
            failDueToAuthenticationError error: SessionError
        ) -> Bool {
            response.status.code == 401
        }

        func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool {
            request.headers["Authorization"] == "Bearer \(credential.value)"
        }
    }

    static func client(_ configure: (inout CourierClient.Configuration) -> Void = { _ in }) throws -> CourierClient {
        try CourierClient(baseURL: server) { configuration in
            configuration.curl.proxy = .none
            configure(&configuration)
        }
    }

    static func firstText(_ socket: any WebSocketConnection) async throws -> String? {
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let text)? = try await iterator.next() else { return nil }
        return text
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_URL not set"))
    func echoesTextAndBinaryAndClosesNormally() async throws {
        let client = try Self.client()

        let socket = try await client.webSocket("echo")
        try await socket.send(.text("hello"))
        try await socket.send(.binary([0, 1, 255]))
        var iterator = socket.messages.makeAsyncIterator()
        let first = try await iterator.next()
        let second = try await iterator.next()
        await socket.close()

        #expect(socket.handshakeResponse.status.code == 101)
        #expect(first == .text("hello"))
        #expect(second == .binary([0, 1, 255]))
        #expect(socket.closeStatus?.code == .normalClosure)
        await client.shutdown()
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_URL not set"))
    func anAuthenticationInterceptorRefreshesTheTokenAfterA401() async throws {
        let refresher = Refresher()
        let auth = AuthenticationInterceptor(authenticator: refresher, credential: Token(value: "expired"))
        let client = try Self.client { $0.interceptors = [auth] }

        let socket = try await client.webSocket("auth")
        try await socket.send(.text("in"))

        #expect(try await Self.firstText(socket) == "in")
        #expect(refresher.refreshes.withLock { $0 } == 1)
        await socket.close()
        await client.shutdown()
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_URL not set"))
    func theHandshakeCarriesTheStoresCookiesAndTheAdaptersHeaders() async throws {
        let server = try #require(Self.server)
        let stamp = HeaderStamp()
        let client = try Self.client { $0.interceptors = [stamp] }
        let store = try #require(client.transport.cookieStore)
        try await store.setCookie(Cookie(name: "session", value: "c00k1e", domain: server.host() ?? "127.0.0.1"))

        let socket = try await client.webSocket("headers")
        let text = try #require(try await Self.firstText(socket))
        let report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]

        #expect((report?["cookies"] as? [String: String])?["session"] == "c00k1e")
        let headers = (report?["headers"] as? [[String]]) ?? []
        #expect(headers.contains(["X-Courier-Adapter", "ran"]))
        await socket.close()
        await client.shutdown()
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_URL not set"))
    func aRedirectIsReportedWithItsLocation() async throws {
        let client = try Self.client()

        let error = await #expect(throws: SessionError.self) { _ = try await client.webSocket("redirect") }

        #expect(error?.kind == .webSocket)
        #expect(error?.response?.status.code == 302)
        guard case .redirectNotFollowed(let response)? = error?.webSocketError else {
            Issue.record("expected a redirect, got \(String(describing: error))")
            await client.shutdown()
            return
        }
        #expect(response.headers["Location"] == "/echo")
        await client.shutdown()
    }

    @Test(.enabled(if: hasTLSServer, "COURIER_WSS_URL or TEST_CA_FILE not set"))
    func echoesOverTLSWithTheClientsTrustSettings() async throws {
        let secure = try #require(ProcessInfo.processInfo.environment["COURIER_WSS_URL"].flatMap(URL.init(string:)))
        let trusting = try Self.client { $0.curl.tls.caFile = CurlTestServers.caFile }
        let untrusting = try Self.client()

        let socket = try await trusting.webSocket(secure.appending(path: "echo"))
        try await socket.send(.text("over tls"))
        let refused = await #expect(throws: SessionError.self) {
            _ = try await untrusting.webSocket(secure.appending(path: "echo"))
        }

        #expect(try await Self.firstText(socket) == "over tls")
        if case .transport? = refused?.kind {
        } else {
            Issue.record("expected a transport error, got \(String(describing: refused))")
        }
        await socket.close()
        await trusting.shutdown()
        await untrusting.shutdown()
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_URL not set"))
    func shuttingTheClientDownClosesItsWebSocketsWith1001() async throws {
        let client = try Self.client()
        let socket = try await client.webSocket("echo")

        await client.shutdown()

        #expect(socket.closeStatus?.code == .goingAway)
    }
}

/// Adds `X-Courier-Adapter: ran` to every request.
struct HeaderStamp: RequestInterceptor {
    func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        var request = request
        try request.headers.set(name: "X-Courier-Adapter", value: "ran")
        return request
    }
}
