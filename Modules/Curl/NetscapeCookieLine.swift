internal import CourierTransport
internal import FoundationEssentials

/// `Cookie` values to and from the Netscape cookie-file lines that libcurl lists and takes
/// (`CURLINFO_COOKIELIST`, `CURLOPT_COOKIELIST`).
///
/// A line has seven tab-separated fields: domain, include-subdomains flag (`TRUE`/`FALSE`), path,
/// secure flag, expiry in seconds since the epoch (`0` for a session cookie), name and value.
/// libcurl writes a domain that includes subdomains with a leading dot and prefixes an HTTP-only
/// cookie's line with `#HttpOnly_`; other lines that start with `#` are comments. The format has no
/// field for `SameSite`, so libcurl's cookies never carry it (see curl's `CURLOPT_COOKIELIST` and
/// its cookie-file documentation).
enum NetscapeCookieLine {
    static let httpOnlyPrefix = "#HttpOnly_"

    /// The cookie on `line`, or `nil` for a comment, a blank line or a line that is not a cookie.
    static func parse(_ line: String) -> Cookie? {
        var text = Substring(line)
        while let last = text.last, last == "\n" || last == "\r" { text = text.dropLast() }
        var httpOnly = false
        if text.hasPrefix(httpOnlyPrefix) {
            httpOnly = true
            text = text.dropFirst(httpOnlyPrefix.count)
        }
        guard !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        // libcurl writes an empty value as an empty seventh field; older writers leave it out.
        guard fields.count == 7 || fields.count == 6 else { return nil }
        let domain = fields[0]
        guard !domain.isEmpty, !fields[2].isEmpty, !fields[5].isEmpty,
            let includesSubdomains = flag(fields[1]), let secure = flag(fields[3]),
            let seconds = Int64(fields[4])
        else { return nil }
        return Cookie(
            name: String(fields[5]),
            value: fields.count == 7 ? String(fields[6]) : "",
            domain: String(domain),
            path: String(fields[2]),
            expiry: seconds == 0 ? nil : Date(timeIntervalSince1970: Double(seconds)),
            isSecure: secure,
            isHTTPOnly: httpOnly,
            isHostOnly: !includesSubdomains
        )
    }

    /// The line libcurl takes for `cookie`.
    ///
    /// - Throws: `TransportError.Category.invalidRequest` for a cookie the format cannot carry: an
    ///   empty name or domain, a path that does not start with `/`, or a tab, CR, LF or NUL anywhere.
    static func format(_ cookie: Cookie) throws(TransportError) -> String {
        func reject(_ reason: String) -> TransportError {
            TransportError(category: .invalidRequest, message: "cookie \(cookie.name.debugDescription): \(reason)")
        }
        for field in [cookie.name, cookie.value, cookie.domain, cookie.path]
        where field.utf8.contains(where: { $0 == 0 || $0 == 9 || $0 == 10 || $0 == 13 }) {
            throw reject("a cookie may not contain a tab, CR, LF or NUL: \(field.debugDescription)")
        }
        guard !cookie.name.isEmpty else { throw reject("the name is empty") }
        guard !cookie.domain.isEmpty, !cookie.domain.hasPrefix("#") else { throw reject("the domain is not a host") }
        guard cookie.path.hasPrefix("/") else { throw reject("the path must start with /") }
        // 0 means a session cookie, so an expiry at or before the epoch is written as 1 (expired).
        let seconds = cookie.expiry.map { max(1, epochSeconds($0)) } ?? 0
        let fields = [
            (cookie.isHostOnly ? "" : ".") + cookie.domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path,
            cookie.isSecure ? "TRUE" : "FALSE", String(seconds), cookie.name, cookie.value,
        ]
        return (cookie.isHTTPOnly ? httpOnlyPrefix : "") + fields.joined(separator: "\t")
    }

    /// Whole seconds since the epoch, clamped to what libcurl's 64-bit `curl_off_t` holds (a
    /// conversion of an out-of-range `Double` would trap).
    static func epochSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds > 0 ? Int64.max : 1 }
        if seconds >= 9.2e18 { return Int64.max }
        if seconds <= -9.2e18 { return Int64.min }
        return Int64(seconds)
    }

    private static func flag(_ field: Substring) -> Bool? {
        switch field.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }
}
