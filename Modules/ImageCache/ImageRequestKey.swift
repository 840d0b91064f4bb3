public import CourierHTTP
internal import FoundationEssentials

/// The cache key of a request and an optional additional identifier.
///
/// AFNetworking appends the additional identifier to the URL with nothing between them, so
/// `https://x.test/a` with `"b.png"` and `https://x.test/ab.png` with no identifier share one key,
/// and one can be served the other's image. Courier puts the unit separator (U+001F) between
/// them: RFC 3986 allows no control character in a URI, and `URL` percent-encodes any it is
/// given, so the key's URL part ends at the first U+001F and no two different pairs can meet. A
/// `nil` identifier adds nothing and an empty one adds the separator alone, so they differ too.
///
/// ```swift
/// let request = HTTPRequest(url: URL(string: "https://x.test/a")!)
/// ImageRequestKey.identifier(for: request, additionalIdentifier: "b.png")  // "https://x.test/a\u{1F}b.png"
/// ```
public enum ImageRequestKey {
    /// What separates the URL from the additional identifier: U+001F, INFORMATION SEPARATOR ONE.
    public static let separator: Character = "\u{1F}"

    /// The key: the request URL's absolute string, then, when `additionalIdentifier` is not `nil`,
    /// ``separator`` and the identifier. The method and headers play no part, as in AFNetworking.
    ///
    /// ```swift
    /// let key = ImageRequestKey.identifier(for: request, additionalIdentifier: nil)  // "https://x.test/a"
    /// ```
    public static func identifier(for request: HTTPRequest, additionalIdentifier: String?) -> String {
        let url = request.url.absoluteString
        guard let additionalIdentifier else { return url }
        return url + String(separator) + additionalIdentifier
    }
}
