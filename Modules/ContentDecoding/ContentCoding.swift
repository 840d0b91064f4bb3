/// A content coding that ``ContentDecoder`` undoes (RFC 9110 §8.4.1), plus raw deflate for
/// protocols that carry deflate data without a wrapper.
///
/// ```swift
/// let codings = try ContentCoding.codings(contentEncoding: "gzip, br")
/// // [.gzip, .brotli]: applied in that order, so decoded brotli first, then gzip
/// ```
public enum ContentCoding: Sendable, Hashable, CustomStringConvertible {
    /// `gzip` (and its alias `x-gzip`): the gzip format (RFC 1952), one member or several in a row.
    case gzip
    /// `deflate`: the zlib format (RFC 1950) as RFC 9110 §8.4.1.2 defines it. A bare deflate stream
    /// (RFC 1951) is accepted too, as browsers and curl do, because some servers send one.
    case deflate
    /// A bare deflate stream (RFC 1951) without header or checksum, as WebSocket's permessage-deflate
    /// carries it (RFC 7692). Not an HTTP token: ``init(token:)`` never returns it.
    case rawDeflate
    /// `br`: Brotli (RFC 7932).
    case brotli
    /// `zstd`: Zstandard (RFC 8878), with the 8 MiB window limit that RFC 9659 sets for HTTP.
    case zstd

    /// The coding an HTTP token names, or `nil` for a token this module does not decode.
    ///
    /// `identity` is not a coding to undo; it also yields `nil` (``codings(contentEncoding:)`` skips it).
    ///
    /// ```swift
    /// ContentCoding(token: "BR")  // .brotli: tokens are case-insensitive (RFC 9110 §8.4.1)
    /// ```
    ///
    /// - Parameter token: One element of a `Content-Encoding` field.
    public init?(token: some StringProtocol) {
        switch token.lowercased() {
        case "gzip", "x-gzip": self = .gzip
        case "deflate": self = .deflate
        case "br": self = .brotli
        case "zstd": self = .zstd
        default: return nil
        }
    }

    /// The HTTP token (`rawDeflate`, which has none, reads `raw-deflate`).
    public var description: String {
        switch self {
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .rawDeflate: "raw-deflate"
        case .brotli: "br"
        case .zstd: "zstd"
        }
    }

    /// The most codings one body may stack; curl caps it at five since CVE-2022-32206, where an
    /// endless `Content-Encoding` list made it allocate a decoder per entry.
    public static let maximumStackDepth = 5

    /// The codings a `Content-Encoding` field lists, in the order they were applied; `identity`
    /// elements and empty list elements are skipped.
    ///
    /// ```swift
    /// let codings = try ContentCoding.codings(contentEncoding: "identity, gzip")  // [.gzip]
    /// ```
    ///
    /// - Parameter contentEncoding: The field's value (several field lines joined with commas).
    /// - Throws: ``ContentDecodingError`` with ``ContentDecodingError/Code/unsupportedCoding`` for a
    ///   coding this module does not know, or ``ContentDecodingError/Code/tooManyCodings`` past
    ///   ``maximumStackDepth``.
    public static func codings(contentEncoding: String) throws(ContentDecodingError) -> [ContentCoding] {
        var codings: [ContentCoding] = []
        for element in contentEncoding.split(separator: ",") {
            let token = element.trimmingSpaces
            if token.isEmpty || token.lowercased() == "identity" { continue }
            guard let coding = ContentCoding(token: token) else {
                throw ContentDecodingError(
                    code: .unsupportedCoding,
                    coding: nil,
                    detail: "unsupported content coding \(String(token).debugDescription)"
                )
            }
            codings.append(coding)
        }
        guard codings.count <= maximumStackDepth else {
            throw ContentDecodingError(
                code: .tooManyCodings,
                coding: nil,
                detail: "\(codings.count) stacked content codings (at most \(maximumStackDepth))"
            )
        }
        return codings
    }
}

extension Substring {
    /// The element without the optional whitespace around it (RFC 9110 §5.6.1's `OWS`).
    fileprivate var trimmingSpaces: Substring {
        let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else { return "" }
        return self[first...last]
    }
}
