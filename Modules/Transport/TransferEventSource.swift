/// The producer end of one transfer's events: what a transport holds to report the transfer.
///
/// Made with its consumer sequence by ``TransferEvents/makeEvents(highWaterMark:lowWaterMark:)``.
/// Only the transport keeps it; the consumer's ``TransferEvents`` cannot reach it.
///
/// Body chunks are counted against the high-water mark. A producer asks ``hasRoomForBody()`` before
/// it accepts a chunk from the network; once the buffer holds the high-water mark it gets `false`,
/// stops reading (libcurl: `CURL_WRITEFUNC_PAUSE`), and is called back through the demand handler
/// when the consumer has drained the buffer to the low-water mark. So at most the high-water mark
/// plus one network chunk is ever held, however slow the consumer.
///
/// ```swift
/// let (events, source) = TransferEvents.makeEvents(highWaterMark: 1 << 20, lowWaterMark: 256 << 10)
/// source.setHandlers(onDemand: { resumeReading() }, onTermination: { cancelTransfer() })
/// source.yield(.response(head))
/// if source.hasRoomForBody() { source.yield(.body(chunk)) }
/// source.yield(.completed(metrics))
/// ```
public struct TransferEventSource: Sendable {
    private let channel: TransferEventChannel.Producer

    init(channel: TransferEventChannel.Producer) {
        self.channel = channel
    }

    /// Buffered body bytes at which ``hasRoomForBody()`` starts answering `false`.
    public var highWaterMark: Int { channel.highWaterMark }
    /// Buffered body bytes at which a refused producer is called back.
    public var lowWaterMark: Int { channel.lowWaterMark }

    /// Sets the producer's callbacks: `onDemand` runs (on the consumer's thread) when a refused
    /// producer may go on; `onTermination` runs when the consumer stops early (cancelled or gone).
    ///
    /// - Parameters:
    ///   - onDemand: Called when the consumer has drained the buffer to the low-water mark after
    ///     ``hasRoomForBody()`` answered `false`.
    ///   - onTermination: Called once when the consumer leaves before the terminal event.
    public func setHandlers(onDemand: @escaping @Sendable () -> Void, onTermination: @escaping @Sendable () -> Void) {
        channel.setHandlers(onDemand: onDemand, onTermination: onTermination)
    }

    /// Whether a body chunk may be accepted now. When not, the producer is marked as waiting and its
    /// demand handler will run once the consumer has drained the buffer to the low-water mark.
    public func hasRoomForBody() -> Bool {
        channel.hasRoom()
    }

    /// Whether the buffer would still be under the high-water mark with `pendingBytes` more body
    /// bytes in it, for a producer that gathers chunks before it yields them. Unlike
    /// ``hasRoomForBody()``, a `false` does not arm the demand handler.
    package func wouldHaveRoomForBody(after pendingBytes: Int) -> Bool {
        channel.wouldHaveRoom(after: pendingBytes)
    }

    /// Body bytes held and not yet consumed.
    public var bufferedBodyBytes: Int { channel.bufferedSize }

    /// Whether the consumer has stopped listening (cancelled, gone, or past the terminal event).
    public var isConsumerDone: Bool { channel.isConsumerDone }

    /// Whether the consumer is parked waiting for the next event: a hook for tests that need that
    /// state, so they wait for it instead of sleeping.
    package var hasParkedConsumer: Bool { channel.hasParkedConsumer }

    /// Delivers an event. Events after a terminal event, or after the consumer left, are dropped.
    ///
    /// - Parameter event: The event, in the order ``TransferEvent`` documents.
    public func yield(_ event: TransferEvent) {
        channel.yield(event, finishing: event.isTerminal)
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
    /// var resumptions = TransferEventSource.Resumptions()
    /// source.yield(.response(response), deferringResumeInto: &resumptions)
    /// source.yield(.completed(metrics), deferringResumeInto: &resumptions)
    /// resumptions.resumeAll()
    /// ```
    package func yield(_ event: TransferEvent, deferringResumeInto resumptions: inout Resumptions) {
        if let resumption = channel.yieldHoldingResume(event, finishing: event.isTerminal) {
            resumptions.pending.append(resumption)
        }
    }

    /// Delivers an event like ``yield(_:)`` and returns the parked consumer's wake-up, when the event
    /// went to one, instead of running it: the producer runs it later (``Resumptions/append(_:)``).
    ///
    /// ```swift
    /// let wakeUp = source.yieldHoldingResume(.body(chunk))
    /// // ... more chunks queue behind it while the consumer stays parked ...
    /// wakeUp?.resume()
    /// ```
    package func yieldHoldingResume(_ event: TransferEvent) -> TransferEventChannel.Resumption? {
        channel.yieldHoldingResume(event, finishing: event.isTerminal)
    }

    /// Consumer wake-ups held back by ``yield(_:deferringResumeInto:)``: ``resumeAll()`` runs them.
    ///
    /// A type of its own rather than a batch generic over the channel's element: the transport's
    /// loop calls ``isEmpty`` and ``resumeAll()`` on every pass, from another module, and the generic
    /// batch's unspecialised code looked up the metadata of the array and of its elements and emptied
    /// the array generically on each call (about 4,000 instructions per small request, counted with
    /// callgrind). Here the element type is known where the code is compiled.
    package struct Resumptions: ~Copyable {
        fileprivate var pending: [TransferEventChannel.Resumption] = []

        /// An empty batch.
        package init() {}

        /// Whether no wake-up is held back.
        package var isEmpty: Bool { pending.isEmpty }

        /// Adds a wake-up held back elsewhere (``TransferEventSource/yieldHoldingResume(_:)``), to
        /// run with the batch.
        package mutating func append(_ resumption: TransferEventChannel.Resumption) {
            pending.append(resumption)
        }

        /// Resumes every held-back consumer, in the order their events were yielded, and empties
        /// the batch (its storage is kept for the next one).
        package mutating func resumeAll() {
            guard !pending.isEmpty else { return }
            for resumption in pending { resumption.resume() }
            pending.removeAll(keepingCapacity: true)
        }
    }
}
