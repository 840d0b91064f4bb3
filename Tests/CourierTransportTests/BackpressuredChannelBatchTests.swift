import CourierLocking
import Testing

@testable import CourierTransport

/// A consumer that reads in batches (`next()`, then `takeBuffered(into:)`) keeps every guarantee of
/// one that reads element by element: order, the ending, the high-water mark, and the producer's
/// call back.
@Suite struct BackpressuredChannelBatchTests {
    @Test func takesWhatIsBufferedAndTheEndingInOneBatch() async {
        // Given: what one pass of a transfer yields
        let (producer, consumer) = ByteChannel.make()
        producer.yield(ByteChannel.chunk(1, 1))
        producer.yield(ByteChannel.chunk(2, 2))
        producer.yield(ByteChannel.chunk(3, 3))
        producer.yield(ByteChannel.chunk(4, 4), finishing: true)

        // When
        let first = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then: the rest in order, the end with them, and the producer told the consumer is done
        #expect(ByteChannel.label(first) == "element 1x1")
        #expect(batch == [ByteChannel.chunk(2, 2), ByteChannel.chunk(3, 3), ByteChannel.chunk(4, 4)])
        #expect(ByteChannel.label(ending) == "end")
        #expect(producer.isConsumerDone)
    }

    @Test func aFailureComesWithTheLastBatch() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        producer.yield(ByteChannel.chunk(1))
        producer.yield(ByteChannel.chunk(2))
        producer.finish(throwing: Broken(reason: "reset"))

        // When
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then
        #expect(batch.count == 1)
        #expect(ByteChannel.label(ending) == "failure reset")
    }

    @Test func noEndingWhileTheProducerGoesOn() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        producer.yield(ByteChannel.chunk(1))

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
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        for value in 1...5 { producer.yield(ByteChannel.chunk(20, UInt8(value))) }

        // When
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        let ending = consumer.takeBuffered(into: &batch)

        // Then: two chunks in the batch, two still buffered, and the batch still counted
        #expect(batch.map { $0.first ?? 0 } == [2, 3])
        #expect(ending == nil)
        #expect(consumer.bufferedSize == 80)
        #expect(ByteChannel.label(await consumer.next()) == "element 20x4")
        #expect(consumer.bufferedSize == 20)
    }

    @Test func aBatchTakesItsFirstElementWhateverItsSize() async {
        // Given
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        producer.yield(ByteChannel.chunk(1))
        producer.yield(ByteChannel.chunk(90, 2))
        producer.yield(ByteChannel.chunk(1, 3))

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
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        for _ in 0..<5 { producer.yield(ByteChannel.chunk(20)) }
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
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        producer.yield(ByteChannel.chunk(70))
        producer.yield(ByteChannel.chunk(70))
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
        producer.yield(ByteChannel.chunk(7, 9))
        let read = await reader.value
        #expect(ByteChannel.label(read) == "element 7x9")
    }

    @Test func leavingForgetsTheHeldBatch() async {
        // Given
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        for _ in 0..<3 { producer.yield(ByteChannel.chunk(10)) }
        _ = await consumer.next()
        var batch: [[UInt8]] = []
        _ = consumer.takeBuffered(into: &batch)

        // When
        consumer.leave()

        // Then
        #expect(producer.bufferedSize == 0)
        #expect(ByteChannel.label(consumer.takeBuffered(into: &batch)) == "abandoned")
    }

    // MARK: Races

    private static let rounds = 300

    @Test func asyncProducerAndBatchConsumerLoseNoElementAndNoWakeUp() async {
        for round in 0..<Self.rounds {
            let (producer, consumer) = ByteChannel.make(high: 8, low: 3)
            let count = 64 + round % 17
            let sender = ByteChannel.startSender(into: producer, count: count)
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
            let (producer, consumer) = ByteChannel.make(high: 5, low: 2)
            let total = 50 + round % 13
            ByteChannel.startPump(into: producer, total: total)
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
