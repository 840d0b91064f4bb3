import CourierTransport

extension TransferEventSource {
    /// Returns once the consumer is parked in `next()`, without sleeping on a guess.
    func waitForParkedConsumer() async {
        while !hasParkedConsumer { await Task.yield() }
    }
}
