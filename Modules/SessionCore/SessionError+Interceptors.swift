package import FoundationEssentials

extension SessionError {
    /// An adapter threw: the task ends with the adapter's error underneath. The engine and
    /// `MockSession` make it the same way.
    package static func adaptationFailed(_ error: any Error, url: URL) -> SessionError {
        SessionError(
            kind: .adaptationFailed,
            message: "a request adapter failed: \(error)",
            failingURL: url,
            underlying: error
        )
    }

    /// A retrier gave up with its own error: it is underneath, and the failure it was asked about
    /// is the original error, with that attempt's response and body.
    package static func retryFailed(_ error: any Error, url: URL, after failure: AttemptFailure) -> SessionError {
        SessionError(
            kind: .retryFailed,
            message: "a retrier ended the task: \(error)",
            failingURL: url,
            response: failure.response,
            data: failure.body,
            underlying: error,
            originalError: failure.error
        )
    }
}
