import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// AFNetworking's `invalidateSessionCancelingTasks:resetSession:` and transport ownership.
@Suite struct SessionResetTests {
    /// A mock server that remembers whether it was shut down.
    final class CountedTransport: HTTPTransport {
        let mock = MockTransport()
        let shutdowns = Lock(0)
        let generation: Int

        init(generation: Int) {
            self.generation = generation
            mock.stub(url: "https://api.test/which", reply: .init(status: 200, body: Data("\(generation)".utf8)))
        }

        func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
            mock.startTransfer(request, options: options)
        }

        func shutdown() async { shutdowns.withLock { $0 += 1 } }
    }

    final class Factory: Sendable {
        let made = Lock<[CountedTransport]>([])
        func make() -> CountedTransport {
            made.withLock { made in
                let transport = CountedTransport(generation: made.count + 1)
                made.append(transport)
                return transport
            }
        }
    }

    let which = HTTPRequest(url: URL(string: "https://api.test/which")!)

    @Test func aResetSessionRunsOnANewTransportAndTheOldOneIsShutDown() async throws {
        let factory = Factory()
        let session = try SessionManager(makeTransport: { factory.make() })
        #expect(try await session.data(for: which).value == Data("1".utf8))

        try await session.invalidate(cancelingTasks: true, resetSession: true)

        #expect(!session.isInvalidated)
        #expect(try await session.data(for: which).value == Data("2".utf8))
        let made = factory.made.withLock { $0 }
        #expect(made.map { $0.shutdowns.withLock { $0 } } == [1, 0])
        await session.shutdown()
        #expect(made[1].shutdowns.withLock { $0 } == 1, "a session that made its transport shuts it down")
    }

    @Test func aSessionGivenATransportCannotBeResetAndStaysInvalidated() async throws {
        let transport = CountedTransport(generation: 1)
        let session = SessionManager(transport: transport)
        await #expect {
            try await session.invalidate(cancelingTasks: false, resetSession: true)
        } throws: { error in
            (error as? SessionError)?.kind == .resetUnavailable
        }
        #expect(session.isInvalidated)
        let refused = await session.response(for: which, serializer: DataResponseSerializer())
        #expect(refused.error?.kind == .sessionInvalidated)
        await session.shutdown()
        #expect(
            transport.shutdowns.withLock { $0 } == 0,
            "a transport the session was given is its owner's to shut down"
        )
    }

    @Test func invalidatingWithoutResetKeepsTheSessionInvalidated() async throws {
        let factory = Factory()
        let session = try SessionManager(makeTransport: { factory.make() })
        try await session.invalidate(cancelingTasks: false, resetSession: false)
        #expect(session.isInvalidated)
        #expect(factory.made.withLock { $0.count } == 1)
    }
}
