internal import CourierLocking

/// A buffer between one producer and one consumer, with backpressure by water marks.
///
/// Elements are counted by a size function (bytes for a body, 0 or 1 for control events). The
/// producer is refused once the buffer holds the high-water mark and is called back when the consumer
/// has drained it to the low-water mark, so at most the high-water mark plus one element is held,
/// however slow the consumer. Either side may be synchronous or asynchronous:
///
/// - a synchronous producer (a libcurl callback on the loop thread) asks ``Producer/hasRoom()``
///   before it accepts an element and is called back through its demand handler;
/// - an asynchronous producer (a task) calls ``Producer/send(_:)``, which suspends it at the
///   high-water mark until the low-water mark;
/// - an asynchronous consumer awaits ``Consumer/next()``; a synchronous one (the loop thread's read
///   callback) calls ``Consumer/poll()`` and is called back through its readable handler.
///
/// The channel ends from the producer's side with ``Producer/finish(throwing:)`` (the consumer reads
/// what is buffered, then the end or the failure) or from the consumer's side with
/// ``Consumer/leave()`` (the buffer is dropped, the producer's termination handler runs and a
/// waiting send returns `false`).
///
/// ```swift
/// let (producer, consumer) = BackpressuredChannel<Data, Never>.makeChannel(
///     highWaterMark: 1 << 20, lowWaterMark: 256 << 10, size: { $0.count }
/// )
/// producer.setHandlers(onDemand: { resumeReading() }, onTermination: { cancelTransfer() })
/// if producer.hasRoom() { producer.yield(chunk) } else { pauseReading() }
/// while case .element(let chunk) = await consumer.next() { sink.write(chunk) }
/// ```
package final class BackpressuredChannel<Element: Sendable, Failure: Error>: Sendable {
    /// What the consumer reads.
    package enum Read: Sendable {
        /// The next element.
        case element(Element)
        /// The producer finished and every element was read.
        case end
        /// The producer failed; every element before the failure was read.
        case failure(Failure)
        /// The consumer left (cancelled or gone): nothing more is delivered.
        case abandoned
    }

    private enum Ending {
        case finished
        case failed(Failure)

        var read: Read {
            switch self {
            case .finished: .end
            case .failed(let failure): .failure(failure)
            }
        }
    }

    private struct State: ~Copyable {
        var queue: [Element] = []
        var head = 0
        var buffered = 0
        var ending: Ending?
        /// The consumer read the ending, or left.
        var consumerDone = false
        var consumerLeft = false
        var consumerClaimed = false
        /// Unsafe, not checked, continuations: `UnsafeContinuation` has a fixed layout, where copying
        /// or destroying a `CheckedContinuation` of a generic element looked its metadata up each
        /// time (about 12% of a small request's instructions, measured with callgrind). Each is taken
        /// out of the state under the lock before it is resumed, so it is resumed exactly once;
        /// `BackpressuredChannelTests` and `ci/sanitize thread` hold that.
        var waiter: UnsafeContinuation<Read, Never>?
        /// A synchronous consumer found the buffer empty and waits for its readable handler.
        var pollerWaiting = false
        /// A synchronous producer was refused and waits for its demand handler.
        var producerRefused = false
        var sender: UnsafeContinuation<Bool, Never>?
        var onDemand: (@Sendable () -> Void)?
        var onTermination: (@Sendable () -> Void)?
        var onReadable: (@Sendable () -> Void)?
        /// The size of the elements the consumer took in its last batch (``takeBuffered(into:)``),
        /// still counted in `buffered` until it asks again: a batch being read holds the producer
        /// back as if it were still buffered.
        var heldByConsumer = 0

        var isEmpty: Bool { head == queue.count }

        mutating func dequeue() -> Element? {
            guard head < queue.count else { return nil }
            let element = queue[head]
            advanceHead(to: head + 1)
            return element
        }

        /// Drops the elements before `end`, which were taken.
        mutating func advanceHead(to end: Int) {
            head = end
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
        }

        /// The consumer asks again, so it is done with its last batch.
        mutating func releaseHeldBatch() {
            buffered -= heldByConsumer
            heldByConsumer = 0
        }

        /// Once the buffer is down to the low-water mark: the refused producer's demand handler and
        /// the suspended sender, each taken out of the state.
        mutating func demandAtLowWaterMark(
            _ lowWaterMark: Int
        ) -> (demand: (@Sendable () -> Void)?, sender: UnsafeContinuation<Bool, Never>?) {
            guard buffered <= lowWaterMark else { return (nil, nil) }
            var demand: (@Sendable () -> Void)?
            if producerRefused {
                producerRefused = false
                demand = onDemand
            }
            defer { sender = nil }
            return (demand, sender)
        }
    }

    private let state = Lock(State())
    private let size: @Sendable (Element) -> Int
    /// Buffered size at which the producer is refused.
    let highWaterMark: Int
    /// Buffered size at which a refused producer is called back.
    let lowWaterMark: Int

    private init(highWaterMark: Int, lowWaterMark: Int, size: @escaping @Sendable (Element) -> Int) {
        self.highWaterMark = Swift.max(1, highWaterMark)
        self.lowWaterMark = Swift.min(Swift.max(0, lowWaterMark), self.highWaterMark)
        self.size = size
    }

    /// Makes the two ends of a channel.
    ///
    /// - Parameters:
    ///   - highWaterMark: Buffered size at which the producer is refused (at least 1).
    ///   - lowWaterMark: Buffered size at which a refused producer is called back; clamped to the
    ///     high-water mark.
    ///   - size: How much an element counts against the marks.
    /// - Returns: The producer's end and the consumer's end.
    package static func makeChannel(
        highWaterMark: Int,
        lowWaterMark: Int,
        size: @escaping @Sendable (Element) -> Int
    ) -> (producer: Producer, consumer: Consumer) {
        let channel = BackpressuredChannel(highWaterMark: highWaterMark, lowWaterMark: lowWaterMark, size: size)
        return (Producer(channel: channel), Consumer(channel: channel))
    }

    /// A parked consumer and what it was handed, resumed now or later in a batch.
    package struct Resumption: Sendable {
        let waiter: UnsafeContinuation<Read, Never>
        let read: Read

        /// Resumes the parked consumer with what it was handed.
        package func resume() { waiter.resume(returning: read) }
    }

    /// What a producer's call must do once the lock is released.
    struct Wake {
        var resumption: Resumption?
        var readable: (@Sendable () -> Void)?
        /// The element was queued and the buffer now holds the high-water mark or more.
        var reachedHighWaterMark = false

        func run() {
            resumption?.resume()
            readable?()
        }
    }

    // MARK: Producer

    func setHandlers(onDemand: @escaping @Sendable () -> Void, onTermination: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.onDemand = onDemand
            $0.onTermination = onTermination
        }
    }

    func hasRoom() -> Bool {
        state.withLock { state in
            if state.consumerDone || state.buffered < highWaterMark { return true }
            state.producerRefused = true
            return false
        }
    }

    /// Whether the buffer would still be under the high-water mark with `pending` more in it; asks
    /// nothing of the consumer (the producer is not marked as refused).
    func wouldHaveRoom(after pending: Int) -> Bool {
        state.withLock { state in state.consumerDone || state.buffered + pending < highWaterMark }
    }

    var bufferedSize: Int { state.withLock { $0.buffered } }

    var isConsumerDone: Bool { state.withLock { $0.consumerDone } }

    var hasParkedConsumer: Bool { state.withLock { $0.waiter != nil } }

    /// Queues `element` (and the ending, when `finishing`), or hands it to the parked consumer.
    ///
    /// Handing the element over (and clearing the waiter) under the lock is what makes a deferred
    /// wake-up safe: later elements queue behind it, the consumer takes them after this one, and
    /// neither a departure nor a second yield can resume the same continuation again.
    /// Returns `nil` when the element was dropped (the channel ended or the consumer left).
    func offer(_ element: Element, finishing: Bool) -> Wake? {
        var resumption: Resumption?
        let (accepted, readable, reachedHighWaterMark) = offer(element, finishing: finishing, handingTo: &resumption)
        guard accepted else { return nil }
        return Wake(resumption: resumption, readable: readable, reachedHighWaterMark: reachedHighWaterMark)
    }

    /// ``offer(_:finishing:)`` with the parked consumer's wake-up put in `resumption` and the rest
    /// returned as a tuple: the producer on the loop thread runs this for every event, and building,
    /// copying and destroying a `Wake` around the event (through the generic element's value
    /// witnesses) cost more than queuing it.
    func offer(
        _ element: Element,
        finishing: Bool,
        handingTo resumption: inout Resumption?
    ) -> (accepted: Bool, readable: (@Sendable () -> Void)?, reachedHighWaterMark: Bool) {
        state.withLock { state in
            guard state.ending == nil, !state.consumerDone else { return (false, nil, false) }
            if finishing { state.ending = .finished }
            var readable: (@Sendable () -> Void)?
            if state.pollerWaiting {
                state.pollerWaiting = false
                readable = state.onReadable
            }
            if let waiter = state.waiter, state.isEmpty {
                state.waiter = nil
                if finishing { state.consumerDone = true }
                resumption = Resumption(waiter: waiter, read: .element(element))
                return (true, readable, false)
            }
            state.buffered += size(element)
            // Room for a small response's queued events (body, progress, completion) in one
            // allocation: growing from empty reallocated the queue twice per transfer.
            if state.queue.capacity == 0 { state.queue.reserveCapacity(4) }
            state.queue.append(element)
            return (true, readable, state.buffered >= highWaterMark)
        }
    }

    /// Queues `element`, then waits while the buffer is at the high-water mark until the consumer
    /// drains it to the low-water mark. `false` when the element was not taken or the consumer left.
    func send(_ element: Element) async -> Bool {
        guard let wake = offer(element, finishing: false) else { return false }
        wake.run()
        guard wake.reachedHighWaterMark else { return true }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.consumerDone { return false }
                if state.buffered <= lowWaterMark { return true }
                state.sender = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    func finish(throwing failure: Failure?) {
        let (resumption, sender, readable) = state.withLock {
            state -> (Resumption?, UnsafeContinuation<Bool, Never>?, (@Sendable () -> Void)?) in
            guard state.ending == nil, !state.consumerDone else { return (nil, nil, nil) }
            let ending: Ending = failure.map { .failed($0) } ?? .finished
            state.ending = ending
            var resumption: Resumption?
            if let waiter = state.waiter {
                // A parked consumer means an empty buffer.
                state.waiter = nil
                state.consumerDone = true
                resumption = Resumption(waiter: waiter, read: ending.read)
            }
            var readable: (@Sendable () -> Void)?
            if state.pollerWaiting {
                state.pollerWaiting = false
                readable = state.onReadable
            }
            defer { state.sender = nil }
            return (resumption, state.sender, readable)
        }
        resumption?.resume()
        sender?.resume(returning: false)
        readable?()
    }

    // MARK: Consumer

    func claimConsumer() -> Bool {
        state.withLock { state in
            defer { state.consumerClaimed = true }
            return !state.consumerClaimed
        }
    }

    func setReadableHandler(_ onReadable: @escaping @Sendable () -> Void) {
        state.withLock { $0.onReadable = onReadable }
    }

    private enum Take {
        case read(Read, demand: (@Sendable () -> Void)?, sender: UnsafeContinuation<Bool, Never>?)
        /// Nothing to read yet; releasing the last batch may still have made room for the producer.
        case parked(demand: (@Sendable () -> Void)?, sender: UnsafeContinuation<Bool, Never>?)
    }

    /// Takes the next element or the ending; when there is none yet, parks `continuation` (when
    /// given) or marks the synchronous consumer as waiting (when `polling`).
    private func take(orPark continuation: UnsafeContinuation<Read, Never>?, polling: Bool = false) -> Take {
        state.withLock { state in
            state.releaseHeldBatch()
            guard let element = state.dequeue() else {
                if state.consumerLeft { return .read(.abandoned, demand: nil, sender: nil) }
                if let ending = state.ending {
                    state.consumerDone = true
                    return .read(ending.read, demand: nil, sender: nil)
                }
                if let continuation { state.waiter = continuation }
                if polling { state.pollerWaiting = true }
                let (demand, sender) = state.demandAtLowWaterMark(lowWaterMark)
                return .parked(demand: demand, sender: sender)
            }
            state.buffered -= size(element)
            if state.isEmpty, state.ending != nil { state.consumerDone = true }
            let (demand, sender) = state.demandAtLowWaterMark(lowWaterMark)
            return .read(.element(element), demand: demand, sender: sender)
        }
    }

    func poll(armingReadable: Bool) -> Read? {
        switch take(orPark: nil, polling: armingReadable) {
        case .read(let read, let demand, let sender):
            sender?.resume(returning: true)
            demand?()
            return read
        case .parked(let demand, let sender):
            sender?.resume(returning: true)
            demand?()
            return nil
        }
    }

    func next() async -> Read {
        switch take(orPark: nil) {
        case .read(let read, let demand, let sender):
            sender?.resume(returning: true)
            demand?()
            return read
        case .parked(let demand, let sender):
            sender?.resume(returning: true)
            demand?()
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Read, Never>) in
                let cancelled = Task.isCancelled
                switch take(orPark: cancelled ? nil : continuation) {
                case .read(let read, let demand, let sender):
                    sender?.resume(returning: true)
                    demand?()
                    continuation.resume(returning: read)
                case .parked(let demand, let sender):
                    sender?.resume(returning: true)
                    demand?()
                    // Not parked when already cancelled: the cancellation handler finds no waiter,
                    // so the answer is given here. Once parked, only a producer or the handler resumes.
                    if cancelled { continuation.resume(returning: .abandoned) }
                }
            }
        } onCancel: {
            leave()
        }
    }

    /// Moves what else is buffered into `batch`, in order and without waiting, after ``next()``
    /// returned an element: the elements whose sizes fit in the low-water mark together (the first
    /// one whatever its size). Their size stays counted against the high-water mark until the
    /// consumer's next take, so the buffer's bound holds and the producer is called back at most
    /// one batch later than an element-by-element consumer would call it. Returns how the stream
    /// ended when `batch` now holds its last elements.
    ///
    /// One lock for everything one pass of the producer yielded, where ``next()`` takes the lock for
    /// each element: a small GET's four events cost one `next()` and one batch.
    func takeBuffered(into batch: inout [Element]) -> Read? {
        state.withLock { state -> Read? in
            if !state.isEmpty {
                var end = state.head
                var bytes = 0
                while end < state.queue.count {
                    let elementSize = size(state.queue[end])
                    guard end == state.head || bytes + elementSize <= lowWaterMark else { break }
                    bytes += elementSize
                    end += 1
                }
                if state.head == 0 && end == state.queue.count && batch.isEmpty {
                    // All of it: the buffers trade places, and nothing is copied or allocated.
                    swap(&batch, &state.queue)
                } else {
                    batch.append(contentsOf: state.queue[state.head..<end])
                    state.advanceHead(to: end)
                }
                state.heldByConsumer += bytes
            }
            guard state.isEmpty else { return nil }
            if state.consumerLeft { return .abandoned }
            guard let ending = state.ending else { return nil }
            state.consumerDone = true
            return ending.read
        }
    }

    /// The consumer is gone: wake it if parked, drop what is buffered, tell the producer.
    func leave() {
        let (waiter, sender, termination) = state.withLock {
            state -> (UnsafeContinuation<Read, Never>?, UnsafeContinuation<Bool, Never>?, (@Sendable () -> Void)?) in
            let wasDone = state.consumerDone
            state.consumerDone = true
            state.consumerLeft = true
            state.pollerWaiting = false
            state.queue.removeAll()
            state.head = 0
            state.buffered = 0
            state.heldByConsumer = 0
            defer {
                state.waiter = nil
                state.sender = nil
            }
            return (state.waiter, state.sender, wasDone || state.ending != nil ? nil : state.onTermination)
        }
        waiter?.resume(returning: .abandoned)
        sender?.resume(returning: false)
        termination?()
    }
}
