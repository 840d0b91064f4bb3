extension BackpressuredChannel {
    /// The consumer's end of a channel: what it may do, and nothing the producer does.
    ///
    /// ```swift
    /// while true {
    ///     switch await consumer.next() {
    ///     case .element(let chunk): sink.write(chunk)
    ///     case .end, .abandoned: return
    ///     case .failure(let error): throw error
    ///     }
    /// }
    /// ```
    package struct Consumer: Sendable {
        let channel: BackpressuredChannel

        /// The buffered size (by the channel's size function) not yet read.
        package var bufferedSize: Int { channel.bufferedSize }

        /// Claims the single consumer's place: `true` for the first caller only (for sequences whose
        /// later iterators must report that they came second).
        package func claim() -> Bool { channel.claimConsumer() }

        /// The next element, or the ending; suspends while the buffer is empty. Cancelling the
        /// waiting task leaves the channel (see ``leave()``) and reads ``BackpressuredChannel/Read/abandoned``.
        package func next() async -> Read { await channel.next() }

        /// After ``next()`` returned an element, moves what else is buffered into `batch` without
        /// waiting, and returns the ending when those are the last elements (see
        /// ``BackpressuredChannel/takeBuffered(into:)``). Their size counts against the high-water
        /// mark until the next take, so a consumer reads a batch before it asks again.
        ///
        /// ```swift
        /// var batch: [Data] = []
        /// while case .element(let first) = await consumer.next() {
        ///     let ending = consumer.takeBuffered(into: &batch)
        ///     sink.write(first)
        ///     for chunk in batch { sink.write(chunk) }
        ///     batch.removeAll(keepingCapacity: true)
        ///     if ending != nil { break }
        /// }
        /// ```
        package func takeBuffered(into batch: inout [Element]) -> Read? { channel.takeBuffered(into: &batch) }

        /// The next element or the ending, without waiting: `nil` when the buffer is empty.
        ///
        /// - Parameter armingReadable: Whether an empty buffer arms the readable handler, which then
        ///   runs at the next element or the ending. A consumer that already holds something to work
        ///   on and only looks ahead passes `false`, so that no wake-up is sent for nothing.
        package func poll(armingReadable: Bool = true) -> Read? { channel.poll(armingReadable: armingReadable) }

        /// Sets what runs (on the producer's thread) when ``poll()`` found nothing and there is now
        /// something to read.
        ///
        /// - Parameter onReadable: The callback.
        package func setReadableHandler(_ onReadable: @escaping @Sendable () -> Void) {
            channel.setReadableHandler(onReadable)
        }

        /// Stops reading: the buffer is dropped, a parked read ends with
        /// ``BackpressuredChannel/Read/abandoned``, a waiting send returns `false`, and the
        /// producer's termination handler runs unless the channel had already ended.
        package func leave() { channel.leave() }
    }
}
