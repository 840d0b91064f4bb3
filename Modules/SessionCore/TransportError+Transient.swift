package import CourierTransport

extension TransportError.Category {
    /// The failures that say the network path failed rather than the request: retried by
    /// `RetryPolicy` and `OfflineAwareRetrier` by default, and reconnected after by `EventSource`.
    package static let transient: Set<TransportError.Category> = [
        .timedOut, .cannotConnect, .connectionLost, .nameResolutionFailed,
    ]
}
