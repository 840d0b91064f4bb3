internal import CourierHTTP
internal import FoundationEssentials

/// The `Retry-After` field (RFC 9110 §10.2.3): delay-seconds or an IMF-fixdate.
///
/// Only the IMF-fixdate form of HTTP-date is read (`Sun, 06 Nov 1994 08:49:37 GMT`), the one
/// RFC 9110 §5.6.7 requires senders to use; the obsolete RFC 850 and asctime forms count as absent.
enum RetryAfter {
    /// The delay the response asks for, measured from `now`; `nil` when absent or unreadable. A date
    /// in the past is a zero delay.
    static func delay(in response: HTTPResponse, now: Date) -> Duration? {
        guard let field = response.headers["Retry-After"] else { return nil }
        let value = String(
            field.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        )
        guard !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = imfFixdate(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : .zero
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), parts[1].count == 2,
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
