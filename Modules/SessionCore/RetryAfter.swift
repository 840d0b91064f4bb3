package import CourierHTTP
package import FoundationEssentials

/// The `Retry-After` field (RFC 9110 §10.2.3): delay-seconds or an IMF-fixdate.
///
/// The date is read in the three forms RFC 9110 §5.6.7 requires recipients to accept
/// (`HTTPDate` in `CourierHTTP`).
package enum RetryAfter {
    /// The delay the response asks for, measured from `now`; `nil` when absent or unreadable. A date
    /// in the past is a zero delay.
    package static func delay(in response: HTTPResponse, now: Date) -> Duration? {
        guard let field = response.headers["Retry-After"] else { return nil }
        let value = String(
            field.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        )
        guard !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : .zero
    }
}
