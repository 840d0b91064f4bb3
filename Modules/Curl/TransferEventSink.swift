internal import CourierTransport

/// Where a transfer's parts report events: the loop's batched source in a transfer, a plain
/// `TransferEventSource` in the parts' unit tests.
protocol TransferEventSink {
    /// Whether a body chunk may be handed over now (see `TransferEventSource.hasRoomForBody()`).
    func hasRoomForBody() -> Bool
    /// Delivers an event.
    func yield(_ event: TransferEvent)
}

extension LoopBatchedEvents: TransferEventSink {}

extension TransferEventSource: TransferEventSink {}
