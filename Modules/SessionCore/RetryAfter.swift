public import CourierHTTP
public import FoundationEssentials

/// The `Retry-After` field (RFC 9110 §10.2.3): delay-seconds or an IMF-fixdate.
///
/// The date is read in the three forms RFC 9110 §5.6.7 requires recipients to accept
/// (`HTTPDate` in `CourierHTTP`). The wall-clock time is a parameter, so the rule reads no clock:
/// `RetryPolicy` passes its clock's date, and a test passes a fixed one.
///
/// ```swift
/// let response = HTTPResponse(status: HTTPStatus(code: 503), headers: try HTTPHeaders([("Retry-After", "120")]))
/// RetryAfter.delay(in: response, now: Date())  // .seconds(120)
/// ```
public enum RetryAfter {
    /// The delay the response asks for, measured from `now`; `nil` when absent or unreadable. A date
    /// in the past is a zero delay; a date is counted to the millisecond.
    ///
    /// ```swift
    /// let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    /// let response = HTTPResponse(
    ///     status: HTTPStatus(code: 429),
    ///     headers: try HTTPHeaders([("Retry-After", "Wed, 21 Oct 2015 07:28:30 GMT")])
    /// )
    /// RetryAfter.delay(in: response, now: now)  // .seconds(30)
    /// ```
    /// - Parameters:
    ///   - response: The response whose `Retry-After` field is read.
    ///   - now: The wall-clock time the delay is measured from (for the date form).
    /// - Returns: The delay, or `nil` when the field is absent or is neither delay-seconds nor an
    ///   HTTP date.
    public static func delay(in response: HTTPResponse, now: Date) -> Duration? {
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
