import CourierLocking
import Testing

@testable import CourierTransport

@Suite struct BackpressuredChannelTests {
    private static func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    // MARK: Ordering and ending

    @Test func deliversElementsInOrderThenTheEnd() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        producer.yield(ByteChannel.chunk(3, 1))
        producer.yield(ByteChannel.chunk(5, 2))
        producer.yield(ByteChannel.chunk(7, 3), finishing: true)
        producer.yield(ByteChannel.chunk(9, 4))  // after the end: dropped

        // When
        var seen: [String] = []
        for _ in 0..<5 { seen.append(ByteChannel.label(await consumer.next())) }

        // Then
        #expect(seen == ["element 3x1", "element 5x2", "element 7x3", "end", "end"])
        #expect(producer.isConsumerDone)
    }

    @Test func finishWithAnErrorComesAfterTheBufferedElements() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        producer.yield(ByteChannel.chunk(4))
        producer.finish(throwing: Broken(reason: "reset"))
        producer.finish()  // a second ending is ignored

        // When
        let first = ByteChannel.label(await consumer.next())
        let second = ByteChannel.label(await consumer.next())
        let third = ByteChannel.label(await consumer.next())

        // Then: the failure stays the answer
        #expect([first, second, third] == ["element 4x1", "failure reset", "failure reset"])
    }

    @Test func finishWakesAParkedConsumerWithTheFailure() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        let reader = Task { ByteChannel.label(await consumer.next()) }
        await Self.waitUntil { producer.hasParkedConsumer }

        // When
        producer.finish(throwing: Broken(reason: "gone"))

        // Then
        #expect(await reader.value == "failure gone")
    }

    // MARK: Backpressure

    @Test func refusesAtTheHighWaterMarkSoAtMostOneElementOvershoots() {
        // Given
        let (producer, _) = ByteChannel.make(high: 100, low: 40)

        // When: the producer yields while it has room
        var accepted = 0
        while producer.hasRoom() {
            producer.yield(ByteChannel.chunk(30))
            accepted += 1
        }

        // Then: 0, 30, 60 and 90 had room; 120 is the high-water mark plus one element at most
        #expect(accepted == 4)
        #expect(producer.bufferedSize == 120)
        #expect(producer.bufferedSize <= producer.highWaterMark + 30)
    }

    @Test func callsARefusedProducerBackOnlyAtTheLowWaterMark() async {
        // Given: a full buffer and a refused producer
        let demands = Lock(0)
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        for _ in 0..<4 { producer.yield(ByteChannel.chunk(30)) }
        #expect(!producer.hasRoom())

        // When / Then: 90 and 60 left are above the low-water mark, 30 is at or below it
        _ = await consumer.next()
        _ = await consumer.next()
        #expect(demands.withLock { $0 } == 0)
        _ = await consumer.next()
        #expect(demands.withLock { $0 } == 1)
        _ = await consumer.next()
        #expect(demands.withLock { $0 } == 1)  // once per refusal
    }

    @Test func noDemandWhenTheProducerWasNeverRefused() async {
        // Given
        let demands = Lock(0)
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        producer.setHandlers(onDemand: { demands.withLock { $0 += 1 } }, onTermination: {})
        producer.yield(ByteChannel.chunk(50))

        // When
        _ = await consumer.next()

        // Then
        #expect(demands.withLock { $0 } == 0)
    }

    @Test func sendSuspendsAtTheHighWaterMarkUntilTheLowWaterMark() async {
        // Given: 90 buffered, so the next send reaches the high-water mark
        let (producer, consumer) = ByteChannel.make(high: 100, low: 40)
        for _ in 0..<3 { #expect(await producer.send(ByteChannel.chunk(30))) }
        let returned = Lock(false)
        let sender = Task {
            let open = await producer.send(ByteChannel.chunk(30))
            returned.withLock { $0 = true }
            return open
        }
        await Self.waitUntil { producer.bufferedSize == 120 }

        // When: the consumer takes two (60 left), the sender is still held
        _ = await consumer.next()
        _ = await consumer.next()
        for _ in 0..<100 { await Task.yield() }
        #expect(!returned.withLock { $0 })

        // Then: at 30 left, below the low-water mark, it goes on
        _ = await consumer.next()
        #expect(await sender.value)
        #expect(producer.bufferedSize == 30)
    }

    @Test func sendToAParkedConsumerHandsOverWithoutWaiting() async {
        // Given: a high-water mark of one element, as a hand-over channel
        let (producer, consumer) = ByteChannel.makeChannel(highWaterMark: 1, lowWaterMark: 0, size: { _ in 1 })
        let reader = Task { ByteChannel.label(await consumer.next()) }
        await Self.waitUntil { producer.hasParkedConsumer }

        // When
        let open = await producer.send(ByteChannel.chunk(2))

        // Then
        #expect(open)
        #expect(await reader.value == "element 2x1")
        #expect(producer.bufferedSize == 0)
    }

    // MARK: Termination from the consumer's side

    @Test func leavingDropsTheBufferAndTellsTheProducerOnce() async {
        // Given
        let terminations = Lock(0)
        let (producer, consumer) = ByteChannel.make()
        producer.setHandlers(onDemand: {}, onTermination: { terminations.withLock { $0 += 1 } })
        producer.yield(ByteChannel.chunk(30))

        // When
        consumer.leave()
        consumer.leave()
        producer.yield(ByteChannel.chunk(30))

        // Then
        #expect(terminations.withLock { $0 } == 1)
        #expect(producer.bufferedSize == 0)
        #expect(producer.isConsumerDone)
        #expect(producer.hasRoom())  // nobody reads: never pause for nobody
        #expect(ByteChannel.label(await consumer.next()) == "abandoned")
        #expect(!(await producer.send(ByteChannel.chunk(1))))
    }

    @Test func leavingReleasesAWaitingSender() async {
        // Given
        let (producer, consumer) = ByteChannel.make(high: 10, low: 0)
        let sender = Task { await producer.send(ByteChannel.chunk(20)) }
        await Self.waitUntil { producer.bufferedSize == 20 }

        // When
        consumer.leave()

        // Then
        #expect(await sender.value == false)
    }

    @Test func leavingAfterTheEndDoesNotTerminateTheProducer() async {
        // Given
        let terminations = Lock(0)
        let (producer, consumer) = ByteChannel.make()
        producer.setHandlers(onDemand: {}, onTermination: { terminations.withLock { $0 += 1 } })
        producer.yield(ByteChannel.chunk(1), finishing: true)

        // When
        consumer.leave()

        // Then
        #expect(terminations.withLock { $0 } == 0)
    }

    @Test func cancellingAParkedConsumerAbandonsTheChannel() async {
        // Given
        let terminations = Lock(0)
        let (producer, consumer) = ByteChannel.make()
        producer.setHandlers(onDemand: {}, onTermination: { terminations.withLock { $0 += 1 } })
        let reader = Task { ByteChannel.label(await consumer.next()) }
        await Self.waitUntil { producer.hasParkedConsumer }

        // When
        reader.cancel()

        // Then
        #expect(await reader.value == "abandoned")
        #expect(terminations.withLock { $0 } == 1)
        #expect(!producer.hasParkedConsumer)
    }

    @Test func aConsumerCancelledBeforeItReadsDoesNotPark() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return ByteChannel.label(await consumer.next())
        }

        // Then
        #expect(await reader.value == "abandoned")
        #expect(producer.isConsumerDone)
    }

    @Test func onlyTheFirstClaimGetsTheConsumersPlace() {
        let (_, consumer) = ByteChannel.make()
        #expect(consumer.claim())
        #expect(!consumer.claim())
    }

    // MARK: Polling consumer

    @Test func pollArmsTheReadableHandlerOnlyWhenAsked() {
        // Given
        let wakes = Lock(0)
        let (producer, consumer) = ByteChannel.make()
        consumer.setReadableHandler { wakes.withLock { $0 += 1 } }

        // When / Then: a look-ahead poll arms nothing
        #expect(consumer.poll(armingReadable: false) == nil)
        producer.yield(ByteChannel.chunk(1))
        #expect(wakes.withLock { $0 } == 0)
        #expect(ByteChannel.label(consumer.poll()) == "element 1x1")

        // An empty poll arms it once, for the next element or the end
        #expect(consumer.poll() == nil)
        producer.yield(ByteChannel.chunk(2))
        producer.finish()
        #expect(wakes.withLock { $0 } == 1)
        #expect(ByteChannel.label(consumer.poll()) == "element 2x1")
        #expect(consumer.poll().map(ByteChannel.label) == "end")
    }

    // MARK: Deferred wake-ups

    @Test func aHeldWakeUpResumesTheConsumerOnlyWhenItRuns() async {
        // Given
        let (producer, consumer) = ByteChannel.make()
        let reader = Task { ByteChannel.label(await consumer.next()) }
        await Self.waitUntil { producer.hasParkedConsumer }

        // When
        let first = producer.yieldHoldingResume(ByteChannel.chunk(3))
        let second = producer.yieldHoldingResume(ByteChannel.chunk(4), finishing: true)

        // Then: one wake-up held, the second element queued behind the first
        #expect(first != nil)
        #expect(second == nil)
        #expect(!producer.hasParkedConsumer)
        first?.resume()
        #expect(await reader.value == "element 3x1")
        #expect(ByteChannel.label(await consumer.next()) == "element 4x1")
        #expect(ByteChannel.label(await consumer.next()) == "end")
    }

    // MARK: Races

    /// Iterations of each race; every one starts from a fresh channel.
    private static let rounds = 300

    @Test func asyncProducerAndConsumerLoseNoElementAndNoWakeUp() async {
        for round in 0..<Self.rounds {
            let (producer, consumer) = ByteChannel.make(high: 8, low: 3)
            let count = 64 + round % 17
            let sender = ByteChannel.startSender(into: producer, count: count)
            var next = 0
            var ended = false
            while !ended {
                switch await consumer.next() {
                case .element(let element):
                    #expect(element == [UInt8(truncatingIfNeeded: next)])
                    next += 1
                    #expect(consumer.bufferedSize <= 8 + 1)
                case .end: ended = true
                case .failure, .abandoned:
                    Issue.record("unexpected ending in round \(round)")
                    ended = true
                }
            }
            await sender.value
            #expect(next == count)
        }
    }

    @Test func refusedProducerResumedByDemandLosesNoWakeUp() async {
        for round in 0..<Self.rounds {
            // A synchronous producer driven by its demand handler, as the loop thread is: it yields
            // while it has room and stops until called back.
            let (producer, consumer) = ByteChannel.make(high: 5, low: 2)
            let total = 50 + round % 13
            ByteChannel.startPump(into: producer, total: total)
            var received = 0
            while case .element(let element) = await consumer.next() {
                #expect(element == [UInt8(truncatingIfNeeded: received)])
                received += 1
            }
            #expect(received == total)
        }
    }

    @Test func pollingConsumerWokenByTheProducerLosesNoElement() async {
        for round in 0..<Self.rounds {
            let (producer, consumer) = ByteChannel.make(high: 6, low: 3)
            let total = 40 + round % 11
            let (wakes, continuation) = AsyncStream<Void>.makeStream()
            consumer.setReadableHandler { continuation.yield() }
            let sender = Task {
                for index in 0..<total {
                    guard await producer.send([UInt8(truncatingIfNeeded: index)]) else { return }
                }
                producer.finish(throwing: Broken(reason: "done"))
            }
            var received = 0
            var wakeIterator = wakes.makeAsyncIterator()
            reading: while true {
                switch consumer.poll() {
                case .element(let element):
                    #expect(element == [UInt8(truncatingIfNeeded: received)])
                    received += 1
                case .failure(let broken):
                    #expect(broken.reason == "done")
                    break reading
                case .end, .abandoned:
                    Issue.record("unexpected ending in round \(round)")
                    break reading
                case nil:
                    // Armed: the producer's next element or its ending wakes this reader.
                    guard await wakeIterator.next() != nil else { break reading }
                }
            }
            continuation.finish()
            await sender.value
            #expect(received == total)
        }
    }

    @Test func consumerLeavingMidStreamNeverStrandsTheProducer() async {
        for round in 0..<Self.rounds {
            let (producer, consumer) = ByteChannel.make(high: 4, low: 1)
            let sender = Task {
                var sent = 0
                while await producer.send([1]) { sent += 1 }
                return sent
            }
            for _ in 0..<(round % 7) { _ = await consumer.next() }
            consumer.leave()
            let sent = await sender.value
            #expect(sent >= round % 7)
        }
    }
}
