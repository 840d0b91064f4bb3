public import FoundationEssentials

/// The head of an HTTP response: status, headers, the URL it answers and the protocol version.
///
/// ```swift
/// let response = HTTPResponse(status: .ok, headers: try HTTPHeaders(["Content-Type": "text/html; charset=utf-8"]))
/// response.mimeType          // "text/html"
/// response.textEncodingName  // "utf-8"
/// ```
public struct HTTPResponse: Sendable, Hashable {
    /// The protocol version of a response.
    public enum Version: Sendable, Hashable, CustomStringConvertible {
        /// HTTP/1.0
        case http1_0
        /// HTTP/1.1
        case http1_1
        /// HTTP/2
        case http2
        /// HTTP/3
        case http3

        /// `"HTTP/1.1"`, `"HTTP/2"`…
        public var description: String {
            switch self {
            case .http1_0: "HTTP/1.0"
            case .http1_1: "HTTP/1.1"
            case .http2: "HTTP/2"
            case .http3: "HTTP/3"
            }
        }
    }

    /// The status.
    public var status: HTTPStatus
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The URL this response answers (after redirects, the last one), when known.
    public var url: URL?
    /// The protocol version.
    public var version: Version

    /// Creates a response head.
    ///
    /// ```swift
    /// let response = HTTPResponse(status: .notFound, url: URL(string: "https://example.com/missing"))
    /// ```
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), url: URL? = nil, version: Version = .http1_1)
    {
        self.status = status
        self.headers = headers
        self.url = url
        self.version = version
    }

    /// The media type of `Content-Type` without parameters, lowercased; `nil` when absent or empty.
    public var mimeType: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = type.trimmingHTTPWhitespace().lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The `charset` parameter of `Content-Type`, lowercased and unquoted; `nil` when absent.
    public var textEncodingName: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingHTTPWhitespace().lowercased() == "charset" else { continue }
            var value = parts[1].trimmingHTTPWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.lowercased()
        }
        return nil
    }

    /// The `Content-Length` as a number, or `nil` when absent or not a plain decimal number.
    public var expectedContentLength: Int64? {
        guard let value = headers["Content-Length"]?.trimmingHTTPWhitespace(), !value.isEmpty,
            value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return Int64(value)
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Drops leading and trailing spaces and tabs (RFC 9110 OWS).
    func trimmingHTTPWhitespace() -> String {
        // On UTF-8 bytes, not Characters: grapheme breaking is most of the cost otherwise, and
        // only ASCII bytes are dropped, so the kept bytes are whole UTF-8 sequences.
        let bytes = utf8
        let isContent: (UInt8) -> Bool = { $0 != 0x20 && $0 != 0x09 }
        guard let first = bytes.firstIndex(where: isContent), let last = bytes.lastIndex(where: isContent) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
