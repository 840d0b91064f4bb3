import CourierHTTP
import CourierTransport
import Foundation
import Synchronization
import Testing

@Suite struct TransferEventsTests {
    private func chunk(_ count: Int) -> TransferEvent { .body(Data(repeating: 1, count: count)) }

    @Test func deliversEventsInOrderAndEndsAfterTheTerminalEvent() async {
        // Given
        let events = TransferEvents(highWaterMark: 100, lowWaterMark: 10)
        events.yield(.response(.init(status: .ok)))
        events.yield(chunk(5))
        events.yield(.completed(TransferMetrics()))
        events.yield(chunk(7))  // after the terminal event: dropped

        // When
        var seen: [String] = []
        for await event in events {
            switch event {
            case .response: seen.append("response")
            case .body(let data): seen.append("body \(data.count)")
            case .completed: seen.append("completed")
            default: seen.append("other")
            }
        }

        // Then
        #expect(seen == ["response", "body 5", "completed"])
    }

    @Test func refusesBodyAtTheHighWaterMarkAndAsksAgainAtTheLowWaterMark() async {
        // Given
        let demands = Mutex(0)
        let events = TransferEvents(highWaterMark: 100, lowWaterMark: 40)
        events.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})

        // When: the producer fills the buffer
        var accepted = 0
        while events.hasRoomForBody() {
            events.yield(chunk(30))
            accepted += 30
        }

        // Then: it stopped at the first check past the high-water mark
        #expect(accepted == 120)
        #expect(events.bufferedBodyBytes == 120)

        // When: the consumer drains to above the low-water mark, no demand yet
        var iterator = events.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        #expect(events.bufferedBodyBytes == 60)
        #expect(demands.withLock { $0 } == 0)

        // When: it drains to the low-water mark, the producer is called back exactly once
        _ = await iterator.next()
        #expect(events.bufferedBodyBytes == 30)
        #expect(demands.withLock { $0 } == 1)
        _ = await iterator.next()
        #expect(demands.withLock { $0 } == 1)
        #expect(events.hasRoomForBody())
    }

    @Test func aParkedConsumerIsWokenByTheNextEvent() async {
        let events = TransferEvents(highWaterMark: 10, lowWaterMark: 1)
        async let first: TransferEvent? = {
            var iterator = events.makeAsyncIterator()
            return await iterator.next()
        }()
        try? await Task.sleep(for: .milliseconds(20))
        events.yield(chunk(3))
        guard case .body(let data)? = await first else {
            Issue.record("expected a body chunk")
            return
        }
        #expect(data.count == 3)
        #expect(events.bufferedBodyBytes == 0)
    }

    @Test func cancellingTheConsumerEndsTheSequenceAndTellsTheProducer() async {
        // Given
        let terminated = Mutex(false)
        let events = TransferEvents(highWaterMark: 10, lowWaterMark: 1)
        events.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })

        // When
        let consumer = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        try? await Task.sleep(for: .milliseconds(20))
        consumer.cancel()

        // Then
        #expect(await consumer.value == 0)
        #expect(terminated.withLock { $0 })
        #expect(events.isConsumerDone)
        #expect(events.hasRoomForBody())  // a producer is never stuck on a consumer that left
    }

    @Test func droppingTheIteratorEarlyTellsTheProducer() async {
        let terminated = Mutex(false)
        let events = TransferEvents(highWaterMark: 10, lowWaterMark: 1)
        events.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })
        events.yield(chunk(1))
        do {
            var iterator = events.makeAsyncIterator()
            _ = await iterator.next()
        }
        #expect(terminated.withLock { $0 })
    }

    @Test func finishingNormallyDoesNotReportTermination() async {
        let terminated = Mutex(false)
        let events = TransferEvents(highWaterMark: 10, lowWaterMark: 1)
        events.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })
        events.yield(.completed(TransferMetrics()))
        for await _ in events {}
        #expect(!terminated.withLock { $0 })
    }

    @Test func aSecondIteratorEndsAtOnce() async {
        let events = TransferEvents(highWaterMark: 10, lowWaterMark: 1)
        events.yield(chunk(1))
        let first = events.makeAsyncIterator()
        var second = events.makeAsyncIterator()
        #expect(await second.next() == nil)
        _ = first
    }

    @Test func progressFractionNeedsAKnownTotal() {
        #expect(TransferProgress(completed: 5, total: 10).fraction == 0.5)
        #expect(TransferProgress(completed: 5, total: nil).fraction == nil)
        #expect(TransferProgress(completed: 0, total: 0).fraction == nil)
    }

    @Test func resumeValidatorPrefersAStrongEntityTag() {
        #expect(ResumeValidator(offset: 1, entityTag: "\"abc\"", lastModified: "x").ifRangeValue == "\"abc\"")
        #expect(ResumeValidator(offset: 1, entityTag: "W/\"abc\"", lastModified: "x").ifRangeValue == "x")
        #expect(ResumeValidator(offset: 1, entityTag: nil, lastModified: nil).ifRangeValue == nil)
    }

    @Test func errorsDescribeCategoryCodeMessageAndURL() {
        let error = TransportError(
            category: .timedOut,
            code: 28,
            message: "Operation timed out",
            url: URL(string: "http://127.0.0.1:1/slow")
        )
        #expect(error.description == "timedOut (code 28): Operation timed out [http://127.0.0.1:1/slow]")
    }
}
