/// Whether the leaf certificate names the host the transport connected to.
///
/// DNS names are matched per RFC 6125 (wildcards only as a whole left-most label); IP literals are
/// matched against IP address entries of the subject alternative names only.
///
/// ```swift
/// let hostOK = trust.hostVerdict == .matches || trust.host == nil
/// ```
public enum HostVerdict: Hashable, Sendable, CustomStringConvertible {
    /// The leaf certificate is valid for ``ServerTrust/host``.
    case matches
    /// The leaf certificate is not valid for ``ServerTrust/host``.
    case mismatch
    /// No host was checked, because the connection had no host to check (``ServerTrust/host`` is nil).
    case notChecked

    /// The verdict's name.
    public var description: String {
        switch self {
        case .matches: "matches"
        case .mismatch: "mismatch"
        case .notChecked: "notChecked"
        }
    }
}
