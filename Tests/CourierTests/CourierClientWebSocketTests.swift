import Courier
import CourierTesting
import CourierWebSocket
import Foundation
import Testing

/// `CourierClient.webSocket` over a scripted connector: the base URL, the interceptors and the
/// shutdown, without a socket.
@Suite(.timeLimit(.minutes(1))) struct CourierClientWebSocketTests {
    /// Signs every handshake.
    struct Signer: RequestInterceptor {
        func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
            var request = request
            try request.headers.set(name: "Authorization", value: "Bearer t0k3n")
            return request
        }
    }

    static func client(_ connector: MockWebSocketConnector) throws -> CourierClient {
        try CourierClient(baseURL: URL(string: "https://chat.example/v1")) { configuration in
            configuration.makeTransport = { _ in MockTransport() }
            configuration.session.webSocketConnector = connector
            configuration.interceptors = [Signer()]
        }
    }

    @Test func aURLStringOpensOnTheBaseURLWithTheInterceptorsHeaders() async throws {
        let connector = MockWebSocketConnector()
        let socket = MockWebSocket(incoming: [.text("welcome")])
        connector.stub(url: "https://chat.example/v1/rooms/1", socket: socket)
        let client = try Self.client(connector)

        let opened = try await client.webSocket("rooms/1", protocols: ["chat.v1"])
        var iterator = opened.messages.makeAsyncIterator()

        #expect(try await iterator.next() == .text("welcome"))
        #expect(connector.verify(.header("Authorization", "Bearer t0k3n"), called: 1) == nil)
        #expect(connector.handshakes.first?.configuration.subprotocols == ["chat.v1"])
        await client.shutdown()
        #expect(socket.closeRequest?.code == .goingAway)
    }

    @Test func anAbsoluteURLAndARequestOpenAsGiven() async throws {
        let connector = MockWebSocketConnector()
        connector.stub(url: "wss://other.example/ws", socket: MockWebSocket())
        let client = try Self.client(connector)

        _ = try await client.webSocket(URL(string: "wss://other.example/ws")!)
        _ = try await client.webSocket(HTTPRequest(url: URL(string: "wss://other.example/ws")!))

        #expect(connector.verify(.url("wss://other.example/ws"), called: 2) == nil)
        await client.shutdown()
    }
}
