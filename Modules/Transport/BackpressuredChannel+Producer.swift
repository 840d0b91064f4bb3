extension BackpressuredChannel {
    /// The producer's end of a channel: what it may do, and nothing the consumer does.
    ///
    /// ```swift
    /// producer.setHandlers(onDemand: { loop.unpause(id) }, onTermination: { loop.cancel(id) })
    /// if producer.hasRoom() { producer.yield(chunk) } else { /* pause */ }
    /// producer.finish(throwing: nil)
    /// ```
    package struct Producer: Sendable {
        let channel: BackpressuredChannel

        /// Buffered size at which ``hasRoom()`` starts answering `false`.
        package var highWaterMark: Int { channel.highWaterMark }
        /// Buffered size at which a refused producer is called back.
        package var lowWaterMark: Int { channel.lowWaterMark }
        /// The buffered size (by the channel's size function) not yet read.
        package var bufferedSize: Int { channel.bufferedSize }
        /// Whether the consumer has read the ending or left.
        package var isConsumerDone: Bool { channel.isConsumerDone }
        /// Whether an asynchronous consumer is parked in ``Consumer/next()``: a hook for tests that
        /// wait for that state instead of sleeping.
        package var hasParkedConsumer: Bool { channel.hasParkedConsumer }

        /// Sets the synchronous producer's callbacks.
        ///
        /// - Parameters:
        ///   - onDemand: Runs on the consumer's thread when the consumer has drained the buffer to the
        ///     low-water mark after ``hasRoom()`` answered `false`.
        ///   - onTermination: Runs once when the consumer leaves before the ending.
        package func setHandlers(
            onDemand: @escaping @Sendable () -> Void,
            onTermination: @escaping @Sendable () -> Void
        ) {
            channel.setHandlers(onDemand: onDemand, onTermination: onTermination)
        }

        /// Whether an element may be yielded now. When not, the demand handler runs once the consumer
        /// has drained the buffer to the low-water mark. Always `true` once the consumer is done.
        package func hasRoom() -> Bool { channel.hasRoom() }

        /// Whether the buffer would still be under the high-water mark with `pending` more of the
        /// size function's units in it, for a producer that gathers elements before it yields them.
        /// Unlike ``hasRoom()``, a `false` does not arm the demand handler.
        package func wouldHaveRoom(after pending: Int) -> Bool { channel.wouldHaveRoom(after: pending) }

        /// Delivers an element, ignoring the marks (ask ``hasRoom()`` first to respect them).
        /// Dropped after the ending or once the consumer left.
        ///
        /// - Parameters:
        ///   - element: The element.
        ///   - finishing: Whether the channel ends after it, in the same step.
        package func yield(_ element: Element, finishing: Bool = false) {
            channel.offer(element, finishing: finishing)?.run()
        }

        /// Delivers an element like ``yield(_:finishing:)``, but returns the wake-up of a parked
        /// consumer instead of running it, for a producer that keeps its own batch of them.
        ///
        /// - Parameters:
        ///   - element: The element.
        ///   - finishing: Whether the channel ends after it, in the same step.
        /// - Returns: The consumer's wake-up, which the caller must run (``Resumption/resume()``)
        ///   before it blocks or waits; `nil` when no consumer was parked.
        package func yieldHoldingResume(_ element: Element, finishing: Bool = false) -> Resumption? {
            var resumption: Resumption?
            channel.offer(element, finishing: finishing, handingTo: &resumption).readable?()
            return resumption
        }

        /// Delivers an element, then suspends while the buffer holds the high-water mark until the
        /// consumer drains it to the low-water mark.
        ///
        /// - Parameter element: The element.
        /// - Returns: `false` when the element was dropped or the consumer left: send no more.
        package func send(_ element: Element) async -> Bool { await channel.send(element) }

        /// Ends the channel: the consumer reads what is buffered, then the end (or `failure`).
        ///
        /// - Parameter failure: The failure the consumer reads last, or `nil` for a normal end.
        package func finish(throwing failure: Failure? = nil) { channel.finish(throwing: failure) }
    }
}
