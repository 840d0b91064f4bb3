import CourierHTTP
import CourierLocking
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The hooks through which another test framework (or CourierTestingExpectations) learns of a
/// request a double did not expect.
@Suite struct DoubleHooksTests {
    private let url = URL(string: "https://api.example.com/v1/me")!

    @Test func theUnstubbedHandlerSeesEachUnstubbedRequestAndSurvivesAReset() async throws {
        let transport = MockTransport()
        let missed = Lock<[String]>([])
        transport.onUnstubbedRequest { request in missed.withLock { $0.append(request.description) } }
        transport.stub(url: url.absoluteString, json: "{}")

        _ = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 10)
        transport.reset()
        await #expect(throws: TransportError.self) {
            try await transport.startTransfer(HTTPRequest(method: .delete, url: url)).collect(upTo: 1 << 10)
        }

        #expect(missed.withLock { $0 } == ["DELETE https://api.example.com/v1/me"])
    }

    @Test func theUnimplementedTransportReportsEachAttemptBeforeFailingIt() async {
        let attempts = Lock<[String]>([])
        let transport = UnimplementedTransport { request in attempts.withLock { $0.append(request.description) } }

        await #expect(throws: TransportError.self) {
            try await transport.startTransfer(HTTPRequest(method: .post, url: url)).collect(upTo: 10)
        }

        #expect(attempts.withLock { $0 } == ["POST https://api.example.com/v1/me"])
        #expect(transport.attempts.map(\.method) == [.post])
    }
}
