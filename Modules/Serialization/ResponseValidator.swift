public import CourierHTTP
public import FoundationEssentials

/// Checks a response's status code and MIME type, as AFNetworking's `AFHTTPResponseSerializer` does.
///
/// Every serializer in this module validates with one of these before it reads the body. The rules
/// are AFNetworking 4's, with one deliberate difference noted below:
///
/// - Only an HTTP response is validated; with no response, everything is valid.
/// - Content type (only when ``acceptableContentTypes`` is set): the response's MIME type (the
///   `Content-Type` media type without parameters, lowercased) must be in the set, unless the
///   response has no MIME type *and* no body. A mismatch is an error only when there is a body
///   (see below). The error has code ``SerializationError/Code/unacceptableContentType``,
///   URL-loading code `-1016` and the description `Request failed: unacceptable content-type: <mime>`
///   (`(null)` when there is no MIME type but there is a body, as AFNetworking prints it).
///   Types compare case-insensitively (RFC 9110 §8.3.1); AFNetworking compares the lowercased MIME
///   type with the set as given.
/// - Status (only when ``acceptableStatusCodes`` is set): the code must be in the set. The error has
///   code ``SerializationError/Code/unacceptableStatusCode``, URL-loading code `-1011` and the
///   description `Request failed: <reason phrase> (<code>)` with the reason phrase lowercased, as
///   Apple's `HTTPURLResponse.localizedString(forStatusCode:)` writes it: `Request failed: not found (404)`.
///   swift-corelibs-foundation capitalises the phrase (`Not Found`); Courier keeps Apple's casing so
///   messages match AFNetworking on Apple platforms. The phrase is the IANA registry's, so the rare
///   codes where Apple's table words things differently read differently.
/// - Both errors carry the failing URL (the response's, else the request's), the response and the
///   body. When both checks fail, the status error is returned with the content-type error as its
///   ``SerializationError/underlying`` error.
///
/// A content-type mismatch with an *empty* body is not an error, as in AFNetworking's
/// `-[AFHTTPResponseSerializer validateResponse:data:error:]`, which marks the response invalid but
/// makes no error object for it: a `204 No Content` labelled `text/html`, or a download whose body
/// went to a file (the serializer then sees empty data), succeeds with no value. The status check
/// still applies to such a response.
///
/// With ``contentTypeMatching`` set to ``ContentTypeMatching/mediaRanges``, types match as Alamofire's
/// `validate(contentType:)` matches them instead (see there); the errors are the same.
///
/// The difference: AFNetworking reports nothing at all when the response has no URL. Courier
/// reports the error anyway, with the request's URL or none, because an invalid response with no
/// error cannot be told apart from a valid one by the caller.
///
/// ```swift
/// var validator = ResponseValidator(acceptableContentTypes: ["application/json"])
/// validator.acceptableStatusCodes = Set(200...299).union([304])
/// if let error = validator.validate(response: response, data: body, request: request) {
///     print(error.localizedDescription)  // "Request failed: unacceptable content-type: text/html"
/// }
/// ```
public struct ResponseValidator: Sendable, Hashable {
    /// 200 through 299, AFNetworking's default.
    public static let defaultAcceptableStatusCodes: Set<Int> = Set(200...299)

    /// The status codes that are acceptable; `nil` accepts every code.
    public var acceptableStatusCodes: Set<Int>?
    /// The MIME types that are acceptable, such as `application/json`; `nil` accepts every type.
    public var acceptableContentTypes: Set<String>?
    /// How the response's MIME type is compared with ``acceptableContentTypes``.
    public var contentTypeMatching: ContentTypeMatching

    /// How a response's MIME type is compared with the acceptable content types.
    ///
    /// ```swift
    /// var serializer = JSONResponseSerializer()
    /// serializer.validator.contentTypeMatching = .mediaRanges
    /// serializer.acceptableContentTypes = ["application/*", "text/json; charset=utf-8"]
    /// ```
    public enum ContentTypeMatching: Sendable, Hashable {
        /// AFNetworking's rule (the default): the MIME type must be one of the set's entries, compared
        /// whole and case-insensitively; an entry with parameters matches nothing.
        case exact
        /// Alamofire 5's `validate(contentType:)`: each entry is a media range, so `*/*` matches any
        /// type, `text/*` any text type and `*/json` any `json` subtype; parameters after `;` are
        /// ignored on both sides (`application/json; charset=utf-8` matches `application/json`). A
        /// response with a body but no MIME type (or one without a `/`) passes only when an entry is
        /// `*/*`. The error names the entries, sorted, in Alamofire's words in its
        /// ``SerializationError/failureReason``.
        ///
        /// Two deliberate differences: type and subtype compare case-insensitively (RFC 9110 §8.3.1),
        /// where Alamofire compares them as given, and whitespace before a `;` is ignored (RFC 9110's
        /// optional whitespace), where Alamofire keeps it in the subtype.
        case mediaRanges
    }

    /// Creates a validator.
    ///
    /// ```swift
    /// let anyStatus = ResponseValidator(acceptableStatusCodes: nil, acceptableContentTypes: ["text/csv"])
    /// ```
    /// ```swift
    /// let ranges = ResponseValidator(acceptableContentTypes: ["text/*"], contentTypeMatching: .mediaRanges)
    /// ```
    /// - Parameters:
    ///   - acceptableStatusCodes: The acceptable codes, 200...299 by default; `nil` for any.
    ///   - acceptableContentTypes: The acceptable MIME types; `nil` (the default) for any.
    ///   - contentTypeMatching: How types are compared, AFNetworking's ``ContentTypeMatching/exact`` by
    ///     default.
    public init(
        acceptableStatusCodes: Set<Int>? = ResponseValidator.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<String>? = nil,
        contentTypeMatching: ContentTypeMatching = .exact
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.contentTypeMatching = contentTypeMatching
    }

    /// Validates a response; returns `nil` when it is acceptable and the error otherwise.
    ///
    /// ```swift
    /// let error = ResponseValidator().validate(response: response, data: body, request: nil)
    /// ```
    /// - Parameters:
    ///   - response: The response; `nil` is always valid.
    ///   - data: The body, carried by the error and used for the no-type-no-body exception.
    ///   - request: The request; its URL is the failing URL when the response has none.
    public func validate(response: HTTPResponse?, data: Data?, request: HTTPRequest?) -> SerializationError? {
        guard let response else { return nil }
        let failingURL = response.url ?? request?.url
        let hasBody = !(data?.isEmpty ?? true)

        var contentTypeError: SerializationError?
        // With no body there is nothing to misread, so a mismatch is no error (AFNetworking b.7).
        if let acceptableContentTypes, hasBody, let mismatch = mismatch(response, acceptableContentTypes) {
            contentTypeError = SerializationError(
                code: .unacceptableContentType,
                domain: .response,
                urlErrorCode: -1016,
                localizedDescription: "Request failed: unacceptable content-type: \(response.mimeType ?? "(null)")",
                failureReason: mismatch.reason,
                failingURL: failingURL,
                response: response,
                data: data
            )
        }

        if let acceptableStatusCodes, !acceptableStatusCodes.contains(response.status.code) {
            let phrase = response.status.reasonPhrase.lowercased()
            return SerializationError(
                code: .unacceptableStatusCode,
                domain: .response,
                urlErrorCode: -1011,
                localizedDescription: "Request failed: \(phrase) (\(response.status.code))",
                failingURL: failingURL,
                response: response,
                data: data,
                underlying: contentTypeError
            )
        }
        return contentTypeError
    }

    /// A content type that is not acceptable.
    private struct Mismatch {
        /// Alamofire's explanation; AFNetworking's exact matching gives none.
        let reason: String?
    }

    /// Why the response's MIME type is unacceptable, or `nil` when it is acceptable.
    private func mismatch(_ response: HTTPResponse, _ types: Set<String>) -> Mismatch? {
        switch contentTypeMatching {
        case .exact:
            return Self.accepts(response, among: types) ? nil : Mismatch(reason: nil)
        case .mediaRanges:
            let mimeType = response.mimeType
            let ranges = types.compactMap(MediaRange.init)
            let listed = types.sorted().joined(separator: ",")
            guard let mimeType, let type = MediaRange(mimeType) else {
                if ranges.contains(where: \.isWildcard) { return nil }
                return Mismatch(
                    reason:
                        "Response Content-Type was missing and acceptable content types (\(listed)) do not match \"*/*\"."
                )
            }
            if ranges.contains(where: { $0.matches(type) }) { return nil }
            return Mismatch(
                reason: "Response Content-Type \"\(mimeType)\" does not match any acceptable types: \(listed)."
            )
        }
    }

    private static func accepts(_ mimeType: String?, among types: Set<String>) -> Bool {
        guard let mimeType else { return false }
        return types.contains(mimeType) || types.contains { $0.lowercased() == mimeType }
    }

    /// `accepts(response.mimeType, among: types)` without building the lower-cased MIME type (a
    /// split, a trimmed copy and a lower-cased copy per response): an ASCII media type is compared in
    /// place, ASCII case-insensitively, with each ASCII acceptable type; anything else takes the
    /// general path.
    private static func accepts(_ response: HTTPResponse, among types: Set<String>) -> Bool {
        guard let contentType = response.headers["Content-Type"] else { return false }
        let matched: Bool?? = contentType.utf8.withContiguousStorageIfAvailable { bytes in
            guard let mediaType = asciiMediaType(in: bytes) else { return nil }
            if mediaType.isEmpty { return false }
            var matched = false
            for type in types {
                let compared = type.utf8.withContiguousStorageIfAvailable { typeBytes -> Bool? in
                    guard typeBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                    return equalIgnoringASCIICase(typeBytes, mediaType)
                }
                guard let compared, let equal = compared else { return nil }
                if equal {
                    matched = true
                    break
                }
            }
            return matched
        }
        if let matched, let decided = matched { return decided }
        return accepts(response.mimeType, among: types)
    }

    /// The bytes of the media type of a `Content-Type` value (before any `;`, without surrounding
    /// spaces and tabs, as ``HTTPResponse/mimeType``), or `nil` when the value is not all ASCII (where
    /// `mimeType`'s split by characters could differ from one by bytes).
    private static func asciiMediaType(in value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>.SubSequence?
    {
        guard value.allSatisfy({ $0 < 0x80 }) else { return nil }
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        var upper = value.firstIndex(of: UInt8(ascii: ";")) ?? value.endIndex
        var lower = value.startIndex
        while lower < upper, isWhitespace(value[lower]) { lower += 1 }
        while upper > lower, isWhitespace(value[upper - 1]) { upper -= 1 }
        return value[lower..<upper]
    }

    private static func equalIgnoringASCIICase(
        _ left: UnsafeBufferPointer<UInt8>,
        _ right: UnsafeBufferPointer<UInt8>.SubSequence
    ) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { lowercasedASCII($0) == lowercasedASCII($1) }
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}

/// A media range such as `text/*`, parsed as Alamofire parses one: parameters dropped, exactly one `/`.
private struct MediaRange {
    let type: Substring
    let subtype: Substring

    init?(_ text: String) {
        let mediaType = text.prefix { $0 != ";" }
        let parts = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        type = Self.trimmed(parts[0])
        subtype = Self.trimmed(parts[1])
    }

    var isWildcard: Bool { type == "*" && subtype == "*" }

    /// Whether this range (an acceptable entry) covers `other` (the response's type).
    func matches(_ other: MediaRange) -> Bool {
        (type == "*" || type.lowercased() == other.type.lowercased())
            && (subtype == "*" || subtype.lowercased() == other.subtype.lowercased())
    }

    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }
}
