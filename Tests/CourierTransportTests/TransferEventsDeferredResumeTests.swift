import CourierHTTP
import CourierLocking
import CourierTransport
import Foundation
import Testing

@Suite struct TransferEventsDeferredResumeTests {
    private static func label(_ event: TransferEvent) -> String {
        switch event {
        case .response(let response): "response \(response.status.code)"
        case .body(let data): "body \(data.count)"
        case .completed: "completed"
        default: "other"
        }
    }

    @Test func queuesWithoutAWakeUpWhenNoConsumerIsParked() async {
        // Given
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 100, lowWaterMark: 10)
        var resumptions = TransferEventSource.Resumptions()

        // When
        source.yield(.response(.init(status: .ok)), deferringResumeInto: &resumptions)
        source.yield(.body(Data(repeating: 1, count: 5)), deferringResumeInto: &resumptions)
        source.yield(.completed(TransferMetrics()), deferringResumeInto: &resumptions)

        // Then: nothing to resume, the body counts against the buffer, the consumer sees all in order
        let nothingToResume = resumptions.isEmpty
        #expect(nothingToResume)
        #expect(source.bufferedBodyBytes == 5)
        var seen: [String] = []
        for await event in events { seen.append(Self.label(event)) }
        #expect(seen == ["response 200", "body 5", "completed"])
    }

    @Test func wakesTheParkedConsumerOnceWhenTheBatchIsResumed() async throws {
        // Given: a consumer that took one event and is parked waiting for the next
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 100, lowWaterMark: 10)
        let seen = Lock<[String]>([])
        let consumer = Task {
            for await event in events { seen.withLock { $0.append(Self.label(event)) } }
        }
        source.yield(.response(.init(status: .ok)))
        await source.waitForParkedConsumer()
        #expect(seen.withLock { $0 } == ["response 200"])

        // When: a burst is yielded with the wake-up held back
        var resumptions = TransferEventSource.Resumptions()
        source.yield(.body(Data(repeating: 1, count: 5)), deferringResumeInto: &resumptions)
        source.yield(.body(Data(repeating: 2, count: 7)), deferringResumeInto: &resumptions)
        source.yield(.completed(TransferMetrics()), deferringResumeInto: &resumptions)
        // A negative check: only a wrongly resumed consumer could move in this time.
        try await Task.sleep(for: .milliseconds(50))

        // Then: the consumer still waits; the first chunk was handed over, the rest is queued
        let heldBack = !resumptions.isEmpty
        #expect(heldBack)
        #expect(seen.withLock { $0 } == ["response 200"])
        #expect(source.bufferedBodyBytes == 7)

        // When
        resumptions.resumeAll()
        await consumer.value

        // Then: one wake-up delivered the whole burst in order, and the batch is empty again
        let emptiedAfterResuming = resumptions.isEmpty
        #expect(emptiedAfterResuming)
        #expect(seen.withLock { $0 } == ["response 200", "body 5", "body 7", "completed"])
    }

    @Test func dropsADeferredYieldAfterTheConsumerLeft() async throws {
        // Given: a consumer parked, then cancelled
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 100, lowWaterMark: 10)
        let consumer = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        await source.waitForParkedConsumer()
        consumer.cancel()
        #expect(await consumer.value == 0)

        // When
        var resumptions = TransferEventSource.Resumptions()
        source.yield(.response(.init(status: .ok)), deferringResumeInto: &resumptions)

        // Then: nothing is handed over or resumed twice
        let nothingHandedOver = resumptions.isEmpty
        #expect(nothingHandedOver)
        #expect(source.isConsumerDone)
    }
}
