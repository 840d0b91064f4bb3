internal import CourierLocking

/// The buffer between one transfer's producer and its consumer: the event queue, byte-counted
/// backpressure and the single parked consumer.
///
/// Only ``TransferEventSource`` (the producer end) and ``TransferEvents`` (the consumer end) hold
/// it, so neither end can reach the other's operations. Body chunks are counted against the
/// high-water mark; a producer refused by ``hasRoomForBody()`` is called back through its demand
/// handler once the consumer has drained the buffer to the low-water mark, so at most the high-water
/// mark plus one network chunk is ever held, however slow the consumer.
final class TransferEventChannel: Sendable {
    private struct State: ~Copyable {
        var queue: [TransferEvent] = []
        var head = 0
        var bufferedBodyBytes = 0
        var producerWaiting = false
        var waiter: CheckedContinuation<TransferEvent?, Never>?
        var terminalQueued = false
        var consumerDone = false
        var iteratorIssued = false
        var onDemand: (@Sendable () -> Void)?
        var onTermination: (@Sendable () -> Void)?

        var isEmpty: Bool { head == queue.count }

        mutating func dequeue() -> TransferEvent? {
            guard head < queue.count else { return nil }
            let event = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    private let state = Lock(State())
    /// Buffered body bytes at which `hasRoomForBody()` starts answering `false`.
    let highWaterMark: Int
    /// Buffered body bytes at which a refused producer is called back.
    let lowWaterMark: Int

    /// Creates an empty channel; the low-water mark is clamped to the high-water mark.
    init(highWaterMark: Int, lowWaterMark: Int) {
        self.highWaterMark = Swift.max(1, highWaterMark)
        self.lowWaterMark = Swift.min(Swift.max(0, lowWaterMark), self.highWaterMark)
    }

    /// Sets the producer's callbacks: `onDemand` runs (on the consumer's thread) when a refused
    /// producer may go on; `onTermination` runs when the consumer stops early (cancelled or gone).
    func setHandlers(onDemand: @escaping @Sendable () -> Void, onTermination: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.onDemand = onDemand
            $0.onTermination = onTermination
        }
    }

    // MARK: Producer

    /// Whether a body chunk may be accepted now. When not, the producer is marked as waiting and its
    /// demand handler will run once the consumer has drained the buffer to the low-water mark.
    func hasRoomForBody() -> Bool {
        state.withLock { state in
            if state.consumerDone || state.bufferedBodyBytes < highWaterMark { return true }
            state.producerWaiting = true
            return false
        }
    }

    /// Body bytes held and not yet consumed.
    var bufferedBodyBytes: Int {
        state.withLock { $0.bufferedBodyBytes }
    }

    /// Whether the consumer has stopped listening (cancelled, gone, or past the terminal event).
    var isConsumerDone: Bool {
        state.withLock { $0.consumerDone }
    }

    /// Whether a consumer is parked waiting for the next event.
    var hasParkedConsumer: Bool {
        state.withLock { $0.waiter != nil }
    }

    /// Delivers an event. Events after a terminal event, or after the consumer left, are dropped.
    func yield(_ event: TransferEvent) {
        handOver(event)?.resume()
    }

    /// Delivers an event, appending the consumer's wake-up (if it wakes one) to `resumptions`.
    func yield(_ event: TransferEvent, deferringResumeInto resumptions: inout TransferEventSource.Resumptions) {
        if let resumption = handOver(event) { resumptions.pending.append(resumption) }
    }

    /// A parked consumer and the event it was handed.
    struct Resumption {
        let waiter: CheckedContinuation<TransferEvent?, Never>
        let event: TransferEvent

        func resume() { waiter.resume(returning: event) }
    }

    /// Queues `event`, or hands it to the parked consumer and returns that consumer's wake-up.
    ///
    /// Handing the event over (and clearing the waiter) under the lock is what makes a deferred
    /// wake-up safe: later events queue behind it, the consumer takes them after this one, and
    /// neither a cancellation nor a second yield can resume the same continuation again.
    private func handOver(_ event: TransferEvent) -> Resumption? {
        state.withLock { state in
            guard !state.terminalQueued, !state.consumerDone else { return nil }
            if event.isTerminal { state.terminalQueued = true }
            if let waiter = state.waiter, state.isEmpty {
                state.waiter = nil
                if event.isTerminal { state.consumerDone = true }
                return Resumption(waiter: waiter, event: event)
            }
            if case .body(let chunk) = event { state.bufferedBodyBytes += chunk.count }
            // Room for a small response's queued events (body, progress, completion) in one
            // allocation: growing from empty reallocated the queue twice per transfer.
            if state.queue.capacity == 0 { state.queue.reserveCapacity(4) }
            state.queue.append(event)
            return nil
        }
    }

    // MARK: Consumer

    /// Claims the single consumer's place: `true` for the first caller only.
    func claimConsumer() -> Bool {
        state.withLock { state in
            defer { state.iteratorIssued = true }
            return !state.iteratorIssued
        }
    }

    private enum Take {
        case event(TransferEvent, demand: (@Sendable () -> Void)?)
        case finished
        case parked
    }

    /// Takes the next event, or parks `continuation` (when given) until one is yielded.
    private func take(orPark continuation: CheckedContinuation<TransferEvent?, Never>?) -> Take {
        state.withLock { state in
            guard let event = state.dequeue() else {
                if state.consumerDone { return .finished }
                guard let continuation else { return .parked }
                state.waiter = continuation
                return .parked
            }
            if case .body(let chunk) = event { state.bufferedBodyBytes -= chunk.count }
            if event.isTerminal { state.consumerDone = true }
            var demand: (@Sendable () -> Void)?
            if state.producerWaiting && state.bufferedBodyBytes <= lowWaterMark {
                state.producerWaiting = false
                demand = state.onDemand
            }
            return .event(event, demand: demand)
        }
    }

    func nextEvent() async -> TransferEvent? {
        switch take(orPark: nil) {
        case .event(let event, let demand):
            demand?()
            return event
        case .finished:
            return nil
        case .parked:
            break
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TransferEvent?, Never>) in
                let cancelled = Task.isCancelled
                switch take(orPark: cancelled ? nil : continuation) {
                case .event(let event, let demand):
                    demand?()
                    continuation.resume(returning: event)
                case .finished:
                    continuation.resume(returning: nil)
                case .parked:
                    // Not parked when already cancelled: the cancellation handler finds no waiter,
                    // so the answer is given here. Once parked, only `yield` or the handler resumes.
                    if cancelled { continuation.resume(returning: nil) }
                }
            }
        } onCancel: {
            consumerLeft()
        }
    }

    /// The consumer is gone: wake it if parked, drop what is buffered, tell the producer.
    func consumerLeft() {
        let (waiter, termination): (CheckedContinuation<TransferEvent?, Never>?, (@Sendable () -> Void)?) =
            state.withLock { state in
                let wasDone = state.consumerDone
                state.consumerDone = true
                state.queue.removeAll()
                state.head = 0
                state.bufferedBodyBytes = 0
                let waiter = state.waiter
                state.waiter = nil
                return (waiter, wasDone || state.terminalQueued ? nil : state.onTermination)
            }
        waiter?.resume(returning: nil)
        termination?()
    }
}
