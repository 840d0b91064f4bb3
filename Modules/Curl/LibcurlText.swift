internal import CourierDiagnostics
internal import FoundationEssentials

/// Every piece of libcurl's human-readable text the transport acts on, and the libcurl releases it
/// was verified against.
///
/// libcurl reports some protocol faults only in words: an informational debug line
/// (``LibcurlNotice``) or the detail of an error whose code alone is too generic
/// (``CurlErrorMapping``). Words are not an interface: a later release may reword a message (7.88
/// writes "recveived GOAWAY", later releases "received"), and the check that reads it would then
/// stop firing without a sound. So each string lives here, once, with the release range it was
/// measured on; a transport reports a libcurl outside that range through its diagnostics when it
/// starts, and the integration suite `LibcurlTextSelfTests` provokes each string from the libcurl
/// it runs on.
enum LibcurlText: CaseIterable, Sendable {
    /// Debug line: the body was longer than `Content-Length`; libcurl dropped the excess and reported
    /// success.
    case excessBody
    /// Debug line: an HTTP/2 GOAWAY frame arrived.
    case goaway
    /// Error detail of 56 RECV_ERROR: a malformed chunk in a chunked body.
    case chunkedEncoding
    /// Error detail of 56 RECV_ERROR: the response head passed libcurl's 300 KiB limit.
    case tooLargeResponseHeaders
    /// Error detail of 18 PARTIAL_FILE over HTTP/2: nghttp2 ended the session on a frame error.
    case http2TransferClosed

    /// The prefixes (or, for ``chunkedEncoding``, the fragment) the transport looks for.
    var fragments: [String] {
        switch self {
        case .excessBody: ["Excess found in a read: excess = "]
        // Both spellings: the misspelt one is 7.88's (lib/http2.c), fixed in later releases.
        case .goaway: ["recveived GOAWAY, error=", "received GOAWAY, error="]
        case .chunkedEncoding: ["chunk"]
        case .tooLargeResponseHeaders: ["Too large response headers"]
        case .http2TransferClosed: ["transfer closed with"]
        }
    }

    /// What stops working when the string changes, for the start-up report.
    var check: String {
        switch self {
        case .excessBody: "a body longer than its Content-Length is a protocol violation"
        case .goaway: "a GOAWAY with an error fails the connection's transfers at once"
        case .chunkedEncoding: "a malformed chunk is a protocol violation, not a lost connection"
        case .tooLargeResponseHeaders: "an oversized response head is a limit, not a lost connection"
        case .http2TransferClosed: "an HTTP/2 frame error that cut a body short is a protocol violation"
        }
    }

    /// The prefix of `line` that names this text, or nil when `line` does not start with one.
    func matchedPrefix(of line: some StringProtocol) -> String? {
        fragments.first { line.hasPrefix($0) }
    }

    /// Whether `message` contains this text anywhere.
    func occurs(in message: String) -> Bool {
        fragments.contains { message.contains($0) }
    }

    /// The libcurl releases whose text was verified, as `CURLVERSION_NOW` numbers (`0xXXYYZZ`):
    /// 7.88.x, the release Debian 12 ships.
    static let verifiedVersions: Range<Int> = 0x07_58_00..<0x07_59_00

    /// The warning for a libcurl outside ``verifiedVersions``, or nil inside it.
    ///
    /// - Parameters:
    ///   - versionNumber: libcurl's `version_num`.
    ///   - version: Its printable form, for the message.
    static func compatibilityWarning(versionNumber: Int, version: String) -> String? {
        guard !verifiedVersions.contains(versionNumber) else { return nil }
        let checks = allCases.map(\.check).joined(separator: "; ")
        return "libcurl \(version) is outside the releases whose messages the protocol-fault checks were "
            + "verified on (7.88.x); these checks may not fire: \(checks)"
    }

    /// Reports a libcurl outside ``verifiedVersions`` to `diagnostics` at `warning`, with the checks
    /// that may no longer fire; says nothing inside the range.
    static func reportCompatibility(versionNumber: Int, version: String, to diagnostics: Diagnostics) {
        guard diagnostics.isEnabled(.warning),
            let warning = compatibilityWarning(versionNumber: versionNumber, version: version)
        else { return }
        diagnostics.log(.warning, warning, metadata: ["check": "libcurlText", "curl.version": version])
    }
}
