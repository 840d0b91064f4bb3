public import CourierHTTP
public import FoundationEssentials

/// One thing that happened to a transfer.
///
/// Order: any number of ``uploadProgress(_:)`` events, then either ``redirect(_:location:)`` or
/// ``response(_:)``, then ``body(_:)`` chunks (for a streamed body) interleaved with
/// ``downloadProgress(_:)``, then exactly one terminal event, ``completed(_:)`` or ``failed(_:)``.
/// A transfer that fails before a response has no ``response(_:)`` event.
///
/// ```swift
/// if case .body(let chunk) = event { file.write(chunk) }
/// ```
public enum TransferEvent: Sendable {
    /// Request body bytes sent so far, and the total when known.
    case uploadProgress(TransferProgress)
    /// A redirect response (301, 302, 303, 307, 308 with a `Location`), with its target resolved
    /// against the request URL. The transport does not follow it; the transfer completes next.
    case redirect(HTTPResponse, location: URL)
    /// The final response head.
    case response(HTTPResponse)
    /// The next chunk of the (decoded) response body.
    case body(Data)
    /// Response body bytes received so far (decoded), and the total when known.
    case downloadProgress(TransferProgress)
    /// The transfer finished; the body, if streamed, has been delivered in full.
    case completed(TransferMetrics)
    /// The transfer failed; nothing follows.
    case failed(TransportError)

    /// Whether this event ends the transfer.
    public var isTerminal: Bool {
        switch self {
        case .completed, .failed: true
        default: false
        }
    }
}

/// Byte counts of one direction of a transfer.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes done so far.
    public var completed: Int64
    /// The expected total, or `nil` when the peer did not say.
    public var total: Int64?

    /// Creates a progress value.
    ///
    /// ```swift
    /// let progress = TransferProgress(completed: 512, total: 1024)
    /// progress.fraction  // 0.5
    /// ```
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// `completed / total`, or `nil` when the total is unknown or zero.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return Double(completed) / Double(total)
    }
}
