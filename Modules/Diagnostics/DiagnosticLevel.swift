/// How severe a diagnostic is, from the most verbose to the most urgent.
///
/// The seven levels and their order are swift-log's (`Logger.Level`), so that a bridge maps them one
/// to one. Courier's own modules use them as follows:
/// - ``trace``: per-transfer detail, such as libcurl's informational lines the transport looked at.
/// - ``debug``: what a layer decided for a single transfer (a check that does not apply to it).
/// - ``info``: outcomes worth keeping, such as a trust evaluation that accepted a server.
/// - ``notice``: something unusual that changed nothing (a graceful HTTP/2 shutdown).
/// - ``warning``: a fault that a layer noticed and handled (a rejected certificate, an over-long
///   body, a check that could not run).
/// - ``error``: a call into a C library that failed and whose failure the caller cannot see.
/// - ``critical``: reserved for states a process should not continue in; Courier emits none.
///
/// ```swift
/// if DiagnosticLevel.warning >= handler.minimumLevel { print("warnings are delivered") }
/// ```
public enum DiagnosticLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// The most verbose level.
    case trace
    /// Details for whoever debugs a single transfer.
    case debug
    /// Outcomes worth keeping in a log.
    case info
    /// Unusual, but nothing went wrong.
    case notice
    /// A fault was noticed and handled.
    case warning
    /// A failure that nobody else reports.
    case error
    /// A failure the process should not continue after.
    case critical

    /// Orders the levels by severity: `trace` is the least severe.
    public static func < (lhs: DiagnosticLevel, rhs: DiagnosticLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The level's name, as swift-log spells it (`"warning"`).
    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }
}
