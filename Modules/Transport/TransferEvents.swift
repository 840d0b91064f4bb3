internal import Synchronization

/// The events of one transfer: an async sequence with byte-counted backpressure, for one consumer.
///
/// Body chunks are counted against a high-water mark. A producer asks ``hasRoomForBody()`` before it
/// accepts a chunk from the network; once the buffer holds the high-water mark it gets `false`, stops
/// reading (libcurl: `CURL_WRITEFUNC_PAUSE`), and is called back through the demand handler when the
/// consumer has drained the buffer to the low-water mark. So at most the high-water mark plus one
/// network chunk is ever held, however slow the consumer.
///
/// If the consuming task is cancelled, or the consumer drops its iterator before the terminal
/// event, the termination handler runs: transports cancel the transfer there.
///
/// ```swift
/// let events = TransferEvents(highWaterMark: 1 << 20, lowWaterMark: 256 << 10)
/// events.setHandlers(onDemand: { loop.unpause(id) }, onTermination: { loop.cancel(id) })
/// // producer (any thread):
/// if events.hasRoomForBody() { events.yield(.body(chunk)) } else { /* pause */ }
/// // consumer:
/// for await event in events { handle(event) }
/// ```
public final class TransferEvents: AsyncSequence, Sendable {
    /// A transfer event.
    public typealias Element = TransferEvent
    /// The sequence never throws: failures arrive as ``TransferEvent/failed(_:)``.
    public typealias Failure = Never

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

    private let state = Mutex(State())
    /// Buffered body bytes at which ``hasRoomForBody()`` starts answering `false`.
    public let highWaterMark: Int
    /// Buffered body bytes at which a refused producer is called back.
    public let lowWaterMark: Int

    /// Creates an empty event sequence.
    ///
    /// - Parameters:
    ///   - highWaterMark: Buffered body bytes at which the producer must stop.
    ///   - lowWaterMark: Buffered body bytes at which the producer is asked to go on; clamped to the
    ///     high-water mark.
    public init(highWaterMark: Int, lowWaterMark: Int) {
        self.highWaterMark = Swift.max(1, highWaterMark)
        self.lowWaterMark = Swift.min(Swift.max(0, lowWaterMark), self.highWaterMark)
    }

    /// Sets the producer's callbacks: `onDemand` runs (on the consumer's thread) when a refused
    /// producer may go on; `onTermination` runs when the consumer stops early (cancelled or gone).
    public func setHandlers(onDemand: @escaping @Sendable () -> Void, onTermination: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.onDemand = onDemand
            $0.onTermination = onTermination
        }
    }

    // MARK: Producer

    /// Whether a body chunk may be accepted now. When not, the producer is marked as waiting and its
    /// demand handler will run once the consumer has drained the buffer to the low-water mark.
    public func hasRoomForBody() -> Bool {
        state.withLock { state in
            if state.consumerDone || state.bufferedBodyBytes < highWaterMark { return true }
            state.producerWaiting = true
            return false
        }
    }

    /// Body bytes held and not yet consumed.
    public var bufferedBodyBytes: Int {
        state.withLock { $0.bufferedBodyBytes }
    }

    /// Whether the consumer has stopped listening (cancelled, gone, or past the terminal event).
    public var isConsumerDone: Bool {
        state.withLock { $0.consumerDone }
    }

    /// Delivers an event. Events after a terminal event, or after the consumer left, are dropped.
    public func yield(_ event: TransferEvent) {
        handOver(event)?.resume()
    }

    /// Delivers an event like ``yield(_:)``, but when it wakes a parked consumer, appends that wake-up
    /// to `resumptions` instead of running it: the producer resumes the batch later, once.
    ///
    /// Resuming a continuation schedules the consumer's task on another thread, a futex wake and a
    /// context switch each. A producer that yields several events in a burst (a small response is a
    /// head, a body chunk, a progress event and `.completed`) collects them and resumes each parked
    /// consumer once, after the burst, when the later events are already queued for it. The
    /// producer must resume the batch before it blocks or waits, or the consumer stays parked.
    ///
    /// ```swift
    /// var resumptions = TransferEvents.Resumptions()
    /// events.yield(.response(response), deferringResumeInto: &resumptions)
    /// events.yield(.completed(metrics), deferringResumeInto: &resumptions)
    /// resumptions.resumeAll()
    /// ```
    package func yield(_ event: TransferEvent, deferringResumeInto resumptions: inout Resumptions) {
        if let resumption = handOver(event) { resumptions.pending.append(resumption) }
    }

    /// Consumer wake-ups held back by ``yield(_:deferringResumeInto:)``.
    package struct Resumptions: ~Copyable {
        fileprivate var pending: [Resumption] = []

        /// An empty batch.
        package init() {}

        /// Whether no wake-up is held back.
        package var isEmpty: Bool { pending.isEmpty }

        /// Resumes every held-back consumer, in the order their events were yielded, and empties the
        /// batch (its storage is kept for the next one).
        package mutating func resumeAll() {
            guard !pending.isEmpty else { return }
            for resumption in pending { resumption.resume() }
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// A parked consumer and the event it was handed.
    fileprivate struct Resumption {
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

    /// Returns the iterator. The sequence has one consumer: a second iterator ends at once.
    public func makeAsyncIterator() -> AsyncIterator {
        let first = state.withLock { state in
            defer { state.iteratorIssued = true }
            return !state.iteratorIssued
        }
        return AsyncIterator(token: first ? ConsumerToken(events: self) : nil)
    }

    /// Iterates over the events; ends after the terminal event.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let token: ConsumerToken?

        fileprivate init(token: ConsumerToken?) {
            self.token = token
        }

        /// The next event, or `nil` after the terminal event or when the task is cancelled.
        public mutating func next() async -> TransferEvent? {
            guard let token else { return nil }
            return await token.events.nextEvent()
        }
    }

    /// Ends the consumer's interest when its iterator is released early.
    fileprivate final class ConsumerToken: Sendable {
        let events: TransferEvents
        init(events: TransferEvents) { self.events = events }
        deinit { events.consumerLeft() }
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

    private func nextEvent() async -> TransferEvent? {
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
    private func consumerLeft() {
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
