public import CourierDiagnostics

/// Something the netlink monitor noticed and skipped instead of failing: a malformed or truncated
/// message, dropped events, a socket error.
///
/// Reported through ``NetlinkReachabilityMonitor/Configuration/diagnostics`` at ``level``, with the
/// kind as the entry's `kind` metadata; nothing is reported while diagnostics are off. Bad input never stops the monitor: the message is skipped and the next change is
/// evaluated as usual.
public struct ReachabilityDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A netlink message whose header or attributes do not fit its length (RFC 3549 framing).
        case malformedMessage
        /// A datagram larger than the receive buffer: the kernel cut it (`MSG_TRUNC`).
        case truncatedDatagram
        /// The kernel dropped events (`ENOBUFS`); every destination is evaluated again.
        case eventsDropped
        /// A message that did not come from the kernel, which is ignored.
        case foreignSender
        /// A socket call failed.
        case socketError
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence with the details (offsets, lengths, errno text).
    public var message: String

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - message: The details.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// `<kind>: <message>`.
    public var description: String { "\(kind): \(message)" }
}

extension ReachabilityDiagnostic {
    /// The level it is reported at: lost events and failed socket calls are errors a user should
    /// see; malformed or truncated messages are warnings; a foreign sender is only of debug interest.
    public var level: DiagnosticLevel {
        switch kind {
        case .socketError, .eventsDropped: .error
        case .malformedMessage, .truncatedDatagram: .warning
        case .foreignSender: .debug
        }
    }
}
