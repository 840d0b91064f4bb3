public import CourierHTTP
public import FoundationEssentials

/// One thing that happened to a transfer.
///
/// Order, the contract every transport keeps:
/// 1. any number of ``uploadProgress(_:)`` events (the last one before the head);
/// 2. one head: ``response(_:)``, or ``redirect(_:location:)`` for a redirect response;
/// 3. the head's body as ``body(_:)`` chunks (streamed transfers) interleaved with
///    ``downloadProgress(_:)``; a redirect's body comes here too, so a session that does not follow
///    the redirect can return the 3xx with its body (a file destination never receives a
///    redirect's body: the next hop fills the file);
/// 4. exactly one terminal event, ``completed(_:)`` or ``failed(_:)``; nothing follows it.
///
/// A transfer that fails before a head has no ``response(_:)`` or ``redirect(_:location:)`` event.
/// Interim (1xx) heads and an authentication challenge the transport answers itself (HTTP Digest's
/// 401) are never reported: they are not the response.
///
/// ```swift
/// if case .body(let chunk) = event { file.write(chunk) }
/// ```
public enum TransferEvent: Sendable {
    /// Request body bytes sent so far, and the total when known.
    case uploadProgress(TransferProgress)
    /// A redirect response (301, 302, 303, 307, 308 with a `Location`), with its target resolved
    /// against the request URL. The transport does not follow it: its body follows, then the
    /// terminal event.
    case redirect(HTTPResponse, location: URL)
    /// The final response head.
    case response(HTTPResponse)
    /// The next chunk of the (decoded) response body.
    case body(Data)
    /// Response body bytes received so far (decoded), and the total when known.
    case downloadProgress(TransferProgress)
    // The two terminal payloads are hundreds of bytes each. Stored out of line (one box per
    // transfer), every event, a body chunk included, is about 40 bytes to copy instead of 350.

    /// The transfer finished; the body, if streamed, has been delivered in full.
    indirect case completed(TransferMetrics)
    /// The transfer failed; nothing follows.
    indirect case failed(TransportError)

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
