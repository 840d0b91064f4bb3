internal import CourierTransport
internal import FoundationEssentials

/// Reads a `Set-Cookie` field of the handshake response into a `Cookie` (RFC 6265 §5.2), so that
/// the cookies a server sets while upgrading land in the transport's store as they would for any
/// other response.
///
/// Only the attributes the store keeps are read; a cookie whose `Domain` does not cover the
/// request's host is ignored (RFC 6265 §5.3, step 6), and so is one with no name.
enum SetCookieParser {
    /// The cookie `value` sets for a response from `url`, or `nil` when it sets none.
    /// - Parameters:
    ///   - value: The field's value.
    ///   - url: The handshake's `http` or `https` URL.
    ///   - now: The time `Max-Age` counts from.
    static func cookie(from value: String, for url: URL, now: Date = Date()) -> Cookie? {
        guard let host = Cookie.canonicalHost(of: url) else { return nil }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(
            name: name,
            value: trimmed(pair[pair.index(after: equals)...]),
            domain: host,
            path: Cookie.defaultPath(for: url)
        )
        var maxAge: Int?
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1)
            let key = pieces.first.map { trimmed($0).lowercased() } ?? ""
            let argument = pieces.count > 1 ? trimmed(pieces[1]) : ""
            switch key {
            case "domain" where !argument.isEmpty:
                let domain = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
                guard Cookie.domain(host, matches: domain.lowercased()) else { return nil }
                cookie.domain = domain.lowercased()
                cookie.isHostOnly = false
            case "path" where argument.hasPrefix("/"):
                cookie.path = argument
            case "max-age":
                maxAge = Int(argument)
            case "expires":
                cookie.expiry = cookie.expiry ?? httpDate(argument)
            case "secure":
                cookie.isSecure = true
            case "httponly":
                cookie.isHTTPOnly = true
            case "samesite":
                cookie.sameSite = Cookie.SameSite(rawValue: argument.capitalized)
            default:
                break
            }
        }
        // RFC 6265 §5.3, step 3: Max-Age wins over Expires.
        if let maxAge { cookie.expiry = now.addingTimeInterval(TimeInterval(maxAge)) }
        return cookie
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7); other date forms leave
    /// the cookie a session cookie.
    private static func httpDate(_ text: String) -> Date? {
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "," }).map(String.init)
        guard fields.count >= 5, let day = Int(fields[1]),
            let month = months.firstIndex(of: fields[2].lowercased()), let year = Int(fields[3])
        else { return nil }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        components.year = year < 100 ? year + (year < 70 ? 2000 : 1900) : year
        components.month = month + 1
        components.day = day
        components.hour = time[0]
        components.minute = time[1]
        components.second = time[2]
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        return calendar.date(from: components)
    }
}
