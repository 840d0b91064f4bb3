import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

/// An `EventSource`'s default bounds on what a server streams: a line of 64 KiB and an event of
/// 1 MiB are taken, one byte more ends the stream with its typed error and no reconnection.
@Suite struct EventSourceLimitTests {
    let url = URL(string: "https://api.test/events")!
    let transport = MockTransport()

    /// The events read before the stream ended, and the error that ended it, for a body of `first`
    /// and then `then`, each arriving as chunks of `first`'s size.
    func read(
        _ first: String,
        then: String,
        chunkSize: Int? = nil
    ) async -> (events: [ServerSentEvent], failure: SessionError?) {
        transport.stub(
            url: url.absoluteString,
            reply: MockTransport.Reply(
                headers: ["Content-Type": "text/event-stream"],
                body: Data((first + then).utf8),
                chunkSize: chunkSize ?? first.utf8.count
            )
        )
        let session = SessionManager(transport: transport)
        var events: [ServerSentEvent] = []
        var failure: SessionError?
        var iterator = session.eventSource(for: HTTPRequest(url: url)).makeAsyncIterator()
        do {
            while let event = try await iterator.next() { events.append(event) }
        } catch {
            failure = error
        }
        await session.shutdown()
        return (events, failure)
    }

    @Test func anEventOfOneMiBIsTakenAndOneByteMoreEndsTheStream() async {
        let defaults = EventSource.Configuration()
        #expect(defaults.maximumEventSize == 1 << 20)
        // Each data line counts its value and its line feed: 32 lines of 32,767 bytes are 1 MiB.
        let line = "data: " + String(repeating: "x", count: 32_767) + "\n"
        let atLimit = String(repeating: line, count: 32) + "\n"
        let overLimit = String(repeating: line, count: 32) + "data:\n\n"
        let (events, failure) = await read(atLimit, then: overLimit)
        #expect(events.map(\.data.utf8.count) == [32 * 32_767 + 31])
        #expect(failure?.kind == .eventStream(.eventTooLarge(limit: 1 << 20)))
        #expect(failure?.message == "an event's data passed 1048576 bytes")
        #expect(transport.startedRequests.count == 1)
    }

    @Test func aLineOf64KiBIsTakenAndOneByteMoreEndsTheStream() async {
        let defaults = EventSource.Configuration()
        #expect(defaults.maximumLineLength == 64 << 10)
        let atLimit = "data: " + String(repeating: "a", count: (64 << 10) - 6) + "\n\n"
        let overLimit = "data: " + String(repeating: "b", count: (64 << 10) - 5) + "\n\n"
        let (events, failure) = await read(atLimit, then: overLimit)
        #expect(events.map(\.data.utf8.count) == [(64 << 10) - 6])
        #expect(failure?.kind == .eventStream(.lineTooLong(limit: 64 << 10)))
        #expect(failure?.message == "an event-stream line passed 65536 bytes")
        #expect(transport.startedRequests.count == 1)
    }

    /// The events a chunk completed before the line that broke the limit are read first, then the
    /// error ends the stream: a server's last good events are not lost with the bad one.
    @Test func eventsCompletedInTheSameChunkBeforeTheLimitAreDelivered() async {
        let good = "data: one\n\ndata: two\n\n"
        let overLimit = "data: " + String(repeating: "b", count: 64 << 10) + "\n\n"
        let (events, failure) = await read(good, then: overLimit, chunkSize: 1 << 20)
        #expect(events.map(\.data) == ["one", "two"])
        #expect(failure?.kind == .eventStream(.lineTooLong(limit: 64 << 10)))
        #expect(transport.startedRequests.count == 1)
    }
}
