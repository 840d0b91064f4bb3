import CourierHTTP
import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

/// The reconnection wait of an `EventSource`, on the session's clock.
@Suite struct EventSourceClockTests {
    let url = URL(string: "https://api.test/events")!
    let clock = ManualClock()
    let transport = MockTransport()

    func stream(_ text: String) -> MockTransport.Reply {
        MockTransport.Reply(headers: ["Content-Type": "text/event-stream"], body: Data(text.utf8))
    }

    @Test func theStreamsRetryIsWaitedOnTheSessionsClock() async throws {
        transport.stub(url: url.absoluteString, reply: stream("data: two\n\n"))
        // Later stubs win: the first connection sets a 5 s retry, sends one event and ends.
        transport.stub(url: url.absoluteString, reply: stream("retry: 5000\nid: 1\ndata: one\n\n"), times: 1)
        var configuration = SessionConfiguration()
        configuration.clock = clock
        let session = SessionManager(transport: transport, configuration: configuration)
        let events = Lock<[String]>([])
        let reader = Task { [url] in
            var iterator = session.eventSource(for: HTTPRequest(url: url)).makeAsyncIterator()
            while let event = try await iterator.next() {
                let count = events.withLock {
                    $0.append(event.data)
                    return $0.count
                }
                if count == 2 { return }
            }
        }

        await clock.waitForSleepers(1)  // the first stream ended: waiting to reconnect
        #expect(events.withLock { $0 } == ["one"])
        clock.advance(by: .milliseconds(4_999))
        #expect(clock.sleeperCount == 1)
        #expect(transport.startedRequests.count == 1)

        clock.advance(by: .milliseconds(1))
        try await reader.value

        #expect(events.withLock { $0 } == ["one", "two"])
        #expect(transport.startedRequests.map { $0.headers["Last-Event-ID"] } == [nil, "1"])
        await session.shutdown()
    }

    @Test func cancellingTheReaderEndsTheWaitWithoutAnAdvance() async throws {
        transport.stub(url: url.absoluteString, reply: stream("data: one\n\n"))
        var configuration = SessionConfiguration()
        configuration.clock = clock
        let session = SessionManager(transport: transport, configuration: configuration)
        let reader = Task { [url] in
            for try await _ in session.eventSource(for: HTTPRequest(url: url)) {}
        }
        await clock.waitForSleepers(1)

        reader.cancel()
        let result = await reader.result

        #expect(throws: SessionError.self) { try result.get() }
        #expect(transport.startedRequests.count == 1)
        #expect(clock.elapsed == .zero)
        await session.shutdown()
    }
}
