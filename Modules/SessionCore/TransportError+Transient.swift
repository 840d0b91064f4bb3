public import CourierTransport

extension TransportError.Category {
    /// The failures that say the network path failed rather than the request: retried by
    /// `RetryPolicy` and `OfflineAwareRetrier` by default, and reconnected after by `EventSource`:
    /// `timedOut`, `cannotConnect`, `connectionLost` and `nameResolutionFailed`.
    ///
    /// ```swift
    /// if TransportError.Category.transient.contains(error.category) { scheduleReconnect() }
    /// ```
    public static let transient: Set<TransportError.Category> = [
        .timedOut, .cannotConnect, .connectionLost, .nameResolutionFailed,
    ]
}
