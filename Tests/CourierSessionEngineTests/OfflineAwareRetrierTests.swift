import CourierHTTP
import CourierReachability
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Synchronization
import Testing

@Suite struct OfflineAwareRetrierTests {
    private let url = URL(string: "https://api.example.com/feed")!

    /// A transport whose first answer is a connection failure and whose later answers are 200.
    private func flakyTransport() -> MockTransport {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("fresh".utf8)))
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .cannotConnect, message: "network is unreachable")),
            times: 1
        )
        return transport
    }

    /// A retrier whose monitor for every host is `monitor`.
    private func retrier(_ monitor: ManualReachabilityMonitor, waitLimit: Duration = .seconds(30))
        -> OfflineAwareRetrier
    {
        var retrier = OfflineAwareRetrier { _ in monitor }
        retrier.waitLimit = waitLimit
        return retrier
    }

    @Test func waitsForThePathToComeBackThenRetriesOnce() async throws {
        // Given: the host's path is down when the request fails
        let monitor = ManualReachabilityMonitor(initialPath: .unreachable)
        let transport = flakyTransport()
        let session = SessionManager(transport: transport, interceptor: Interceptor(retriers: [retrier(monitor)]))

        // When: the network comes back while the retrier waits
        let call = Task { try await session.data(for: HTTPRequest(url: url)) }
        while monitor.startCount == 0 { await Task.yield() }
        await monitor.waitForDeliveries()
        #expect(transport.requests.count == 1)  // nothing is retried while the path is down
        monitor.send(NetworkPath(status: .reachableViaWiFi))
        let response = try await call.value

        // Then
        #expect(response.data == Data("fresh".utf8))
        #expect(response.retryCount == 1)
        #expect(transport.requests.count == 2)
        #expect(!monitor.isMonitoring)
    }

    @Test func declinesWhenTheHostWasReachableAnyway() async {
        let monitor = ManualReachabilityMonitor(initialPath: NetworkPath(status: .reachableViaWiFi))
        let transport = flakyTransport()
        let response = await SessionManager(
            transport: transport,
            interceptor: Interceptor(retriers: [retrier(monitor)])
        )
        .response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .transport(.cannotConnect))
        #expect(transport.requests.count == 1)
    }

    @Test func endsWithATypedErrorWhenThePathStaysDownPastTheLimitOnItsClock() async {
        let monitor = ManualReachabilityMonitor(initialPath: .unreachable)
        let transport = flakyTransport()
        let clock = ManualClock()
        var offline = retrier(monitor, waitLimit: .seconds(30))
        offline.clock = clock
        let session = SessionManager(transport: transport, interceptor: Interceptor(retriers: [offline]))
        let call = Task { [url] in
            await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        }
        await clock.waitForSleepers(1)  // the wait for the path has begun
        clock.advance(by: .seconds(30))
        let response = await call.value

        #expect(response.error?.kind == .retryFailed)
        let unreachable = response.error?.underlying as? HostStillUnreachableError
        #expect(unreachable?.host == "api.example.com")
        #expect(unreachable?.waited == .seconds(30))
        #expect(response.error?.originalError?.kind == .transport(.cannotConnect))
        #expect(transport.requests.count == 1)
    }

    @Test func leavesPostsAndOtherFailuresAlone() async {
        let monitor = ManualReachabilityMonitor(initialPath: .unreachable)
        let transport = flakyTransport()
        let session = SessionManager(transport: transport, interceptor: Interceptor(retriers: [retrier(monitor)]))
        let post = await session.response(
            for: HTTPRequest(method: .post, url: url, body: HTTPBody(Data("x".utf8))),
            serializer: DataResponseSerializer()
        )
        #expect(post.error?.kind == .transport(.cannotConnect))
        #expect(monitor.startCount == 0)
    }
}
