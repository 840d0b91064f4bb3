/// The events of one transfer, as its consumer sees them: an async sequence for one consumer.
///
/// A transfer's events are made in pairs by ``makeEvents(highWaterMark:lowWaterMark:)``: this
/// sequence for the consumer, a ``TransferEventSource`` for the transport. The sequence can only be
/// iterated; nothing reached through it yields events or changes the producer's handlers.
///
/// Body chunks are held with byte-counted backpressure (see ``TransferEventSource``). If the
/// consuming task is cancelled, or the consumer drops its iterator before the terminal event, the
/// transport is told and cancels the transfer.
///
/// The sequence has one consumer. A second iterator does not silently end: its first `next()`
/// returns ``TransferEvent/failed(_:)`` with ``TransportError/Category/alreadyConsumed``, then `nil`.
///
/// ```swift
/// for await event in transfer.events {
///     if case .body(let chunk) = event { sink.write(chunk) }
/// }
/// ```
public struct TransferEvents: AsyncSequence, Sendable {
    /// A transfer event.
    public typealias Element = TransferEvent
    /// The sequence never throws: failures arrive as ``TransferEvent/failed(_:)``.
    public typealias Failure = Never

    private let channel: TransferEventChannel.Consumer

    fileprivate init(channel: TransferEventChannel.Consumer) {
        self.channel = channel
    }

    /// Makes the two ends of one transfer's events: the sequence to hand to the consumer (in an
    /// `HTTPTransfer`) and the source the transport keeps for itself.
    ///
    /// ```swift
    /// let (events, source) = TransferEvents.makeEvents(highWaterMark: 1 << 20, lowWaterMark: 256 << 10)
    /// source.setHandlers(onDemand: { loop.unpause(id) }, onTermination: { loop.cancel(id) })
    /// // producer (any thread):
    /// if source.hasRoomForBody() { source.yield(.body(chunk)) } else { /* pause reading */ }
    /// // consumer:
    /// for await event in events { handle(event) }
    /// ```
    /// - Parameters:
    ///   - highWaterMark: Buffered body bytes at which the producer must stop (at least 1).
    ///   - lowWaterMark: Buffered body bytes at which a stopped producer is asked to go on; clamped
    ///     to the high-water mark.
    /// - Returns: The consumer's sequence and the producer's source.
    public static func makeEvents(
        highWaterMark: Int,
        lowWaterMark: Int
    ) -> (events: TransferEvents, source: TransferEventSource) {
        let (producer, consumer) = TransferEventChannel.makeChannel(
            highWaterMark: highWaterMark,
            lowWaterMark: lowWaterMark,
            size: TransferEvent.bufferedSize
        )
        return (TransferEvents(channel: consumer), TransferEventSource(channel: producer))
    }

    /// Body bytes received and not yet taken by the consumer (at most the high-water mark plus one
    /// network chunk).
    public var bufferedBodyBytes: Int { channel.bufferedSize }

    /// Returns the iterator. Only the first iterator of a sequence (and of its copies) delivers
    /// events; a later one reports ``TransportError/Category/alreadyConsumed``.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(token: channel.claim() ? ConsumerToken(channel: channel) : nil)
    }

    /// Iterates over the events; ends after the terminal event.
    ///
    /// Events come in batches: when the iterator has to wait, it is woken once for everything the
    /// transport yielded meanwhile and takes all of it at once (a small GET's head, body, progress
    /// and completion are one wake-up and two takes of the channel's lock, not five).
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let token: ConsumerToken?
        private var reportedSecondConsumer = false
        /// The rest of the current batch, last event first (each is moved out, not copied).
        private var batch: [TransferEvent] = []
        /// The batch holds the last events: nothing more is asked of the channel.
        private var ended = false

        fileprivate init(token: ConsumerToken?) {
            self.token = token
        }

        /// The next event, or `nil` after the terminal event or when the task is cancelled.
        public mutating func next() async -> TransferEvent? {
            guard let token else {
                guard !reportedSecondConsumer else { return nil }
                reportedSecondConsumer = true
                return .failed(
                    TransportError(
                        category: .alreadyConsumed,
                        message: "the transfer's events were already iterated by another consumer"
                    )
                )
            }
            if let event = batch.popLast() { return event }
            if ended { return nil }
            switch await token.channel.next() {
            case .element(let event):
                if token.channel.takeBuffered(into: &batch) != nil { ended = true }
                batch.reverse()
                return event
            case .end, .abandoned:
                ended = true
                return nil
            }
        }
    }

    /// Ends the consumer's interest when its iterator is released early.
    fileprivate final class ConsumerToken: Sendable {
        let channel: TransferEventChannel.Consumer
        init(channel: TransferEventChannel.Consumer) { self.channel = channel }
        deinit { channel.leave() }
    }
}
