/// The channel between one transfer's producer and its consumer: body chunks count their bytes
/// against the water marks, the other events nothing, and the terminal event ends it.
package typealias TransferEventChannel = BackpressuredChannel<TransferEvent, Never>

extension TransferEvent {
    /// What the event counts against the transfer's water marks: a body chunk's bytes.
    @Sendable static func bufferedSize(_ event: TransferEvent) -> Int {
        if case .body(let chunk) = event { return chunk.count }
        return 0
    }
}
