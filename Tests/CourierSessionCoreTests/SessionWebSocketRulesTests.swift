import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@Suite struct SessionWebSocketRulesTests {
    static let url = URL(string: "wss://chat.example/ws")!

    /// A session that implements the HTTP requirements only.
    struct HTTPOnlySession: HTTPSession {
        var baseURL: URL? { URL(string: "https://api.example.com/v1/") }
        var requestSerializer: any EncodableRequestSerializing { HTTPRequestSerializer() }

        func response<Serializer: ResponseSerializing>(
            for request: HTTPRequest,
            serializer: Serializer,
            options: RequestOptions
        ) async -> DataResponse<Serializer.Output> {
            DataResponse(request: request, response: nil, data: nil, value: nil, error: .cancelled(request.url))
        }

        func download(
            for request: HTTPRequest,
            to destination: DownloadDestination.Choose?,
            options: RequestOptions
        ) async -> DownloadResponse {
            DownloadResponse(request: request, response: nil, filePath: nil, error: .cancelled(request.url))
        }
    }

    @Test func aSessionWithoutWebSocketSupportThrowsATypedError() async throws {
        let error = await #expect(throws: SessionError.self) {
            _ = try await HTTPOnlySession().webSocket("chat")
        }

        #expect(error?.kind == .webSocketUnavailable)
        #expect(error?.failingURL?.absoluteString == "https://api.example.com/v1/chat")
        #expect(error?.urlErrorCode == -1002)
    }

    @Test func aRefusedHandshakeKeepsItsResponse() {
        let refused = HTTPResponse(status: HTTPStatus(code: 401), url: Self.url)

        let error = SessionError.webSocket(.handshakeRefused(refused), url: Self.url)

        #expect(error.kind == .webSocket)
        #expect(error.response?.status.code == 401)
        #expect(error.urlErrorCode == -1011)
        guard case .handshakeRefused? = error.webSocketError else {
            Issue.record("expected the WebSocket error underneath, got \(error)")
            return
        }
    }

    @Test func aTransportFailureIsReportedAsATransportError() {
        let cancelled = SessionError.webSocket(
            .transport(TransportError(category: .cancelled, message: "cancelled")),
            url: Self.url
        )
        let refused = SessionError.webSocket(
            .transport(TransportError(category: .serverTrustFailed, message: "pin mismatch")),
            url: Self.url
        )

        #expect(cancelled.kind == .cancelled && cancelled.urlErrorCode == -999)
        #expect(refused.kind == .transport(.serverTrustFailed) && refused.urlErrorCode == -1202)
        #expect(refused.transportError?.message == "pin mismatch")
    }

    @Test(arguments: [
        (WebSocketError.invalidRequest("no host"), -1000),
        (.messageTooBig(limit: 1), -1103),
        (.frameTooBig(length: 9, limit: 1), -1103),
        (.closeTimedOut, -1001),
        (.protocolViolation(.protocolError, reason: "masked"), -1011),
        (.closedByServer(.goingAway, reason: ""), -1011),
    ])
    func webSocketFailuresHaveAFoundationCode(error: WebSocketError, code: Int) {
        #expect(SessionError.webSocket(error, url: Self.url).urlErrorCode == code)
    }

    @Test func theHandshakeRequestIsAGetWithTheHeaders() throws {
        let session = HTTPOnlySession()

        let request = try session.webSocketRequest(
            URL(string: "ws://chat.example/ws")!,
            headers: try HTTPHeaders(["Origin": "https://app.example"])
        )

        #expect(request.method == .get)
        #expect(request.headers["Origin"] == "https://app.example")
        #expect(throws: SessionError.self) { try session.webSocketRequest(URL(string: "mailto:a@b.example")!) }
        #expect(throws: SessionError.self) { try session.webSocketRequest(URL(string: "wss:///nohost")!) }
    }
}
