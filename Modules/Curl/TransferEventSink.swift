internal import CourierTransport

/// Where a transfer's parts report events: the loop's batched source in a transfer, a plain
/// `TransferEventSource` in the parts' unit tests.
protocol TransferEventSink {
    /// Whether a body chunk may be handed over now (see `TransferEventSource.hasRoomForBody()`).
    func hasRoomForBody() -> Bool
    /// Whether the consumer's buffer would stay under its high-water mark with `pendingBytes` more
    /// (gathered, not yet yielded); a `false` arms nothing (see `TransferEventSource`).
    func wouldHaveRoomForBody(after pendingBytes: Int) -> Bool
    /// Delivers an event.
    func yield(_ event: TransferEvent)
}

extension LoopBatchedEvents: TransferEventSink {}

extension TransferEventSource: TransferEventSink {}
