import Courier
import CourierTesting
import Foundation
import Testing

/// The root's lifecycle over a mock transport: shutdown cancels, is idempotent and is shared.
@Suite struct ShutdownTests {
    @Test func shutdownCancelsWhatIsInFlightAndLaterCallsReturnAtOnce() async throws {
        let transport = MockTransport()
        transport.stub(
            url: "https://api.example.com/slow",
            reply: .init(steps: [.pause(.seconds(30)), .response(HTTPResponse(status: .ok))])
        )
        let client = try CourierClient { $0.makeTransport = { _ in transport } }
        let call = Task { try await client.data(.get, "https://api.example.com/slow") }
        while client.session.session.tasks.isEmpty { await Task.yield() }

        async let first: Void = client.shutdown()
        async let second: Void = client.shutdown()
        _ = await (first, second)
        await client.shutdown()

        await #expect {
            _ = try await call.value
        } throws: { error in
            (error as? SessionError)?.kind == .cancelled
        }
        #expect(client.session.session.isInvalidated)
        await #expect {
            _ = try await client.data(.get, "https://api.example.com/slow")
        } throws: { error in
            (error as? SessionError)?.kind == .sessionInvalidated
        }
    }
}
