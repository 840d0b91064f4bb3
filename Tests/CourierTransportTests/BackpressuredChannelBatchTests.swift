import CourierLocking
import Testing

@testable import CourierTransport

/// A consumer that reads in batches (`next()`, then `takeBuffered(into:)`) keeps every guarantee of
/// one that reads element by element: order, the ending, the high-water mark, and the producer's
/// call back.
@Suite struct BackpressuredChannelBatchTests {
    private struct Broken: Error, Equatable {
        let reason: String
    }

    private typealias Channel = BackpressuredChannel<[UInt8], Broken>

    private static func makeChannel(high: Int = 100, low: Int = 40) -> (Channel.Producer, Channel.Consumer) {
        Channel.makeChannel(highWaterMark: high, lowWaterMark: low, size: { $0.count })
    }

    private static func chunk(_ count: Int, _ value: UInt8 = 1) -> [UInt8] { [UInt8](repeating: value, count: count) }

    private static func label(_ read: Channel.Read?) -> String {
        switch read {
        case .element(let element): "element \(element.count)x\(element.first ?? 0)"
        case .end: "end"
        case .failure(let broken): "failure \(broken.reason)"
        case .abandoned: "abandoned"
        case nil: "none"
        }
    }

    @Test func takesWhatIsBufferedAndTheEndingInOneBatch() async {
        // Given: what one pass of a transfer yields
        let (producer, consumer) = Self.makeChannel()
        producer.yield(Self.chunk(1, 1))
        producer.yield(Self.chunk(2, 2))
        producer.yield(Self.chunk(3, 3))
        producer.yield(Self.chunk(4, 4), finishing: true)

        // When
        let first = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then: the rest in order, the end with them, and the producer told the consumer is done
        #expect(Self.label(first) == "element 1x1")
        #expect(batch == [Self.chunk(2, 2), Self.chunk(3, 3), Self.chunk(4, 4)])
        #expect(Self.label(ending) == "end")
        #expect(producer.isConsumerDone)
    }

    @Test func aFailureComesWithTheLastBatch() async {
        // Given
        let (producer, consumer) = Self.makeChannel()
        producer.yield(Self.chunk(1))
        producer.yield(Self.chunk(2))
        producer.finish(throwing: Broken(reason: "reset"))

        // When
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then
        #expect(batch.count == 1)
        #expect(Self.label(ending) == "failure reset")
    }

    @Test func noEndingWhileTheProducerGoesOn() async {
        // Given
        let (producer, consumer) = Self.makeChannel()
        producer.yield(Self.chunk(1))

        // When: nothing else is buffered
        _ = await consumer.next()
        var batch: [[UInt8]] = []

        // Then
        #expect(consumer.takeBuffered(into: &batch) == nil)
        #expect(batch.isEmpty)
        #expect(!producer.isConsumerDone)
    }

    @Test func aBatchHoldsWhatFitsInTheLowWaterMark() async {
        // Given: 100 bytes in five chunks, and a low-water mark of 40
        let (producer, consumer) = Self.makeChannel(high: 100, low: 40)
        for value in 1...5 { producer.yield(Self.chunk(20, UInt8(value))) }

        // When
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then: two chunks in the batch, two still buffered, and the batch still counted
        #expect(batch.map { $0.first ?? 0 } == [2, 3])
        #expect(ending == nil)
        #expect(consumer.bufferedSize == 80)
        #expect(Self.label(await consumer.next()) == "element 20x4")
        #expect(consumer.bufferedSize == 20)
    }

    @Test func aBatchTakesItsFirstElementWhateverItsSize() async {
        // Given
        let (producer, consumer) = Self.makeChannel(high: 100, low: 40)
        producer.yield(Self.chunk(1))
        producer.yield(Self.chunk(90, 2))
        producer.yield(Self.chunk(1, 3))

        // When
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        _ = consumer.takeBuffered(into: &batch)

        // Then: the large one alone
        #expect(batch.map(\.count) == [90])
    }

    @Test func aHeldBatchHoldsTheProducerBackUntilTheNextTake() async {
        // Given: a full buffer and a refused producer
        let demands = Lock(0)
        let (producer, consumer) = Self.makeChannel(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        for _ in 0..<5 { producer.yield(Self.chunk(20)) }
        #expect(!producer.hasRoom())

        // When: the consumer takes one element and a batch of two
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        _ = consumer.takeBuffered(into: &batch)

        // Then: 80 still count (40 held, 40 buffered), so no call back yet
        #expect(producer.bufferedSize == 80)
        #expect(demands.withLock { $0 } == 0)

        // When: it asks again, done with the batch
        _ = await consumer.next()

        // Then: 20 left, below the low-water mark
        #expect(producer.bufferedSize == 20)
        #expect(demands.withLock { $0 } == 1)
    }

    @Test func parkingReleasesTheHeldBatchAndCallsTheProducerBack() async {
        // Given: the consumer holds the rest of the buffer as a batch and the producer was refused
        let demands = Lock(0)
        let (producer, consumer) = Self.makeChannel(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        producer.yield(Self.chunk(70))
        producer.yield(Self.chunk(70))
        #expect(!producer.hasRoom())
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        _ = consumer.takeBuffered(into: &batch)
        #expect(producer.bufferedSize == 70)
        #expect(demands.withLock { $0 } == 0)

        // When: it asks for more and must wait
        let reader = Task { await consumer.next() }
        while demands.withLock({ $0 }) == 0 { await Task.yield() }

        // Then: the producer was called back (else both sides would wait for ever), and its next
        // element reaches the waiting consumer
        #expect(producer.bufferedSize == 0)
        producer.yield(Self.chunk(7, 9))
        let read = await reader.value
        #expect(Self.label(read) == "element 7x9")
    }

    @Test func leavingForgetsTheHeldBatch() async {
        // Given
        let (producer, consumer) = Self.makeChannel(high: 100, low: 40)
        for _ in 0..<3 { producer.yield(Self.chunk(10)) }
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        _ = consumer.takeBuffered(into: &batch)

        // When
        consumer.leave()

        // Then
        #expect(producer.bufferedSize == 0)
        #expect(Self.label(consumer.takeBuffered(into: &batch)) == "abandoned")
    }

    // MARK: Races

    private static let rounds = 300

    @Test func asyncProducerAndBatchConsumerLoseNoElementAndNoWakeUp() async {
        for round in 0..<Self.rounds {
            let (producer, consumer) = Self.makeChannel(high: 8, low: 3)
            let count = 64 + round % 17
            let sender = Task {
                for index in 0..<count {
                    guard await producer.send([UInt8(truncatingIfNeeded: index)]) else { return }
                }
                producer.finish()
            }
            var received: [UInt8] = []
            var batch: [[UInt8]] = []
            reading: while case .element(let first) = await consumer.next() {
                let ending = consumer.takeBuffered(into: &batch)
                #expect(consumer.bufferedSize <= 8 + 1)
                received += first
                for element in batch { received += element }
                batch.removeAll(keepingCapacity: true)
                if ending != nil { break reading }
            }
            await sender.value
            #expect(received == (0..<count).map { UInt8(truncatingIfNeeded: $0) }, "round \(round)")
        }
    }

    @Test func refusedProducerResumedByABatchConsumerLosesNoWakeUp() async {
        for round in 0..<Self.rounds {
            // A synchronous producer driven by its demand handler, as the loop thread is.
            let (producer, consumer) = Self.makeChannel(high: 5, low: 2)
            let total = 50 + round % 13
            let sent = Lock(0)
            let pump: @Sendable () -> Void = {
                while true {
                    let index: Int? = sent.withLock { sent in
                        guard sent < total, producer.hasRoom() else { return nil }
                        sent += 1
                        return sent - 1
                    }
                    guard let index else { break }
                    producer.yield([UInt8(truncatingIfNeeded: index)], finishing: index == total - 1)
                }
            }
            producer.setHandlers(onDemand: { Task { pump() } }, onTermination: {})
            Task { pump() }
            var received = 0
            var batch: [[UInt8]] = []
            reading: while case .element(let first) = await consumer.next() {
                let ending = consumer.takeBuffered(into: &batch)
                for element in [first] + batch {
                    #expect(element == [UInt8(truncatingIfNeeded: received)])
                    received += 1
                }
                batch.removeAll(keepingCapacity: true)
                if ending != nil { break reading }
            }
            #expect(received == total, "round \(round)")
        }
    }
}
