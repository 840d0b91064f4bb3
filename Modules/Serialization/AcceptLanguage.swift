internal import FoundationEssentials

/// The default `Accept-Language` value, built as AFNetworking builds it.
///
/// Each preferred language becomes `lang;q=Q` with Q = 1, 0.9, 0.8, 0.7, 0.6, 0.5 (at most one
/// significant digit, as AFNetworking's `%0.1g` prints them), joined by `, `, and the list stops after
/// the sixth language (q=0.5), so a long preference list never yields q=0 (RFC 9110 §12.4.2:
/// "not acceptable").
///
/// ```swift
/// AcceptLanguage.headerValue(preferredLanguages: ["en-GB", "fr"])  // "en-GB;q=1, fr;q=0.9"
/// ```
public enum AcceptLanguage {
    /// The most languages listed, down to q=0.5.
    public static let maximumCount = 6

    /// The header value for `preferredLanguages`, in order; `nil` when the list is empty.
    ///
    /// AFNetworking sends an empty `Accept-Language` value when there are no preferred languages; an
    /// empty value says nothing, so Courier leaves the header out. Characters a header value cannot
    /// carry (control characters, non-ASCII) are dropped from each tag; tags left empty are skipped.
    ///
    /// ```swift
    /// AcceptLanguage.headerValue(preferredLanguages: ["de"])  // "de;q=1"
    /// ```
    public static func headerValue(preferredLanguages: [String]) -> String? {
        var components: [String] = []
        for language in preferredLanguages {
            let tag = String(decoding: language.utf8.filter { (0x21...0x7E).contains($0) }, as: UTF8.self)
            guard !tag.isEmpty else { continue }
            let index = components.count
            components.append(tag + ";q=" + (index == 0 ? "1" : "0.\(10 - index)"))
            if components.count == maximumCount { break }
        }
        return components.isEmpty ? nil : components.joined(separator: ", ")
    }

    /// The user's preferred languages, as the platform reports them (`Locale.preferredLanguages`).
    ///
    /// ```swift
    /// let value = AcceptLanguage.headerValue(preferredLanguages: AcceptLanguage.systemPreferredLanguages)
    /// ```
    public static var systemPreferredLanguages: [String] {
        Locale.preferredLanguages
    }
}
