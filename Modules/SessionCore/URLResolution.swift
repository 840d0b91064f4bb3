public import FoundationEssentials

/// How a call's URL string becomes a request URL: AFNetworking's base-URL normalisation, then
/// RFC 3986 §5.2 resolution.
///
/// ```swift
/// let base = URLResolution.normalisedBase(URL(string: "https://api.example.com/v1")!)
/// URLResolution.resolve("users", against: base)  // https://api.example.com/v1/users
/// ```
public enum URLResolution {
    /// AFNetworking's base-URL normalisation: a non-empty path that does not end in `/` gets one
    /// (`URLByAppendingPathComponent:@""`), before any query, so that `v1` stays in
    /// `https://api.example.com/v1` + `users`.
    ///
    /// ```swift
    /// URLResolution.normalisedBase(URL(string: "https://api.example.com/v1")!)  // https://api.example.com/v1/
    /// ```
    /// - Parameter url: The base URL as given.
    /// - Returns: The base URL to resolve against.
    public static func normalisedBase(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            !components.percentEncodedPath.isEmpty, !components.percentEncodedPath.hasSuffix("/")
        else { return url }
        components.percentEncodedPath += "/"
        return components.url ?? url
    }

    /// Resolves a URL reference against a base URL as RFC 3986 §5.2 says (§5.4 lists the examples
    /// this follows, normal and abnormal).
    ///
    /// ```swift
    /// URLResolution.resolve("../g", against: URL(string: "http://a/b/c/d;p?q")!)  // http://a/b/g
    /// ```
    /// - Parameters:
    ///   - reference: An absolute URL or a relative reference; the empty reference is the base
    ///     without its fragment.
    ///   - base: The base URL.
    /// - Returns: The target URL, or `nil` when `reference` is not a URL reference.
    public static func resolve(_ reference: String, against base: URL) -> URL? {
        guard !reference.isEmpty else {
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
            components.fragment = nil
            return components.url
        }
        return URL(string: reference, relativeTo: base)?.absoluteURL
    }
}
