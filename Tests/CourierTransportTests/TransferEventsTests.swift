import CourierHTTP
import CourierLocking
import CourierTransport
import Foundation
import Testing

@Suite struct TransferEventsTests {
    private func chunk(_ count: Int) -> TransferEvent { .body(Data(repeating: 1, count: count)) }

    @Test func deliversEventsInOrderAndEndsAfterTheTerminalEvent() async {
        // Given
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 100, lowWaterMark: 10)
        source.yield(.response(.init(status: .ok)))
        source.yield(chunk(5))
        source.yield(.completed(TransferMetrics()))
        source.yield(chunk(7))  // after the terminal event: dropped

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
        let demands = Lock(0)
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 100, lowWaterMark: 40)
        source.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})

        // When: the producer fills the buffer
        var accepted = 0
        while source.hasRoomForBody() {
            source.yield(chunk(30))
            accepted += 30
        }

        // Then: it stopped at the first check past the high-water mark
        #expect(accepted == 120)
        #expect(source.bufferedBodyBytes == 120)

        // When: the consumer reads two chunks, no demand yet. The second came in a batch with the
        // first (what fits in the low-water mark), which counts until the iterator asks again.
        var iterator = events.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        #expect(source.bufferedBodyBytes == 90)
        #expect(demands.withLock { $0 } == 0)

        // When: it drains to the low-water mark, the producer is called back exactly once
        _ = await iterator.next()
        #expect(source.bufferedBodyBytes == 30)
        #expect(demands.withLock { $0 } == 1)
        _ = await iterator.next()
        #expect(demands.withLock { $0 } == 1)
        #expect(source.hasRoomForBody())
    }

    @Test func aParkedConsumerIsWokenByTheNextEvent() async {
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 10, lowWaterMark: 1)
        async let first: TransferEvent? = {
            var iterator = events.makeAsyncIterator()
            return await iterator.next()
        }()
        await source.waitForParkedConsumer()
        source.yield(chunk(3))
        guard case .body(let data)? = await first else {
            Issue.record("expected a body chunk")
            return
        }
        #expect(data.count == 3)
        #expect(source.bufferedBodyBytes == 0)
    }

    @Test func cancellingTheConsumerEndsTheSequenceAndTellsTheProducer() async {
        // Given
        let terminated = Lock(false)
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 10, lowWaterMark: 1)
        source.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })

        // When
        let consumer = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        await source.waitForParkedConsumer()
        consumer.cancel()

        // Then
        #expect(await consumer.value == 0)
        #expect(terminated.withLock { $0 })
        #expect(source.isConsumerDone)
        #expect(source.hasRoomForBody())  // a producer is never stuck on a consumer that left
    }

    @Test func droppingTheIteratorEarlyTellsTheProducer() async {
        let terminated = Lock(false)
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 10, lowWaterMark: 1)
        source.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })
        source.yield(chunk(1))
        do {
            var iterator = events.makeAsyncIterator()
            _ = await iterator.next()
        }
        #expect(terminated.withLock { $0 })
    }

    @Test func finishingNormallyDoesNotReportTermination() async {
        let terminated = Lock(false)
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 10, lowWaterMark: 1)
        source.setHandlers(onDemand: {}, onTermination: { terminated.withLock { $0 = true } })
        source.yield(.completed(TransferMetrics()))
        for await _ in events {}
        #expect(!terminated.withLock { $0 })
    }

    @Test func aSecondIteratorReportsAlreadyConsumedThenEnds() async {
        // Given: a copy of the sequence, as a second holder of a transfer would have
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 10, lowWaterMark: 1)
        let copy = events
        source.yield(chunk(1))
        var first = events.makeAsyncIterator()

        // When
        var second = copy.makeAsyncIterator()
        let reported = await second.next()

        // Then: the second consumer is told why it gets nothing, and the first still gets the chunk
        guard case .failed(let error)? = reported else {
            Issue.record("expected an alreadyConsumed failure, got \(String(describing: reported))")
            return
        }
        #expect(error.category == .alreadyConsumed)
        #expect(await second.next() == nil)
        guard case .body(let data)? = await first.next() else {
            Issue.record("the first consumer lost its event")
            return
        }
        #expect(data.count == 1)
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
