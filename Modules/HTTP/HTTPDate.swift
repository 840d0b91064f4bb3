public import FoundationEssentials

/// HTTP-date (RFC 9110 §5.6.7): `Date`, `Expires`, `Last-Modified`, `Retry-After` and the
/// conditional request fields.
///
/// Senders must use the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`), and ``format(_:)``
/// writes it; recipients must also read the two obsolete forms, RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`), and ``parse(_:)``
/// reads all three.
///
/// ```swift
/// let date = HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")  // 784111777 s after 1970
/// HTTPDate.format(Date(timeIntervalSince1970: 784_111_777))    // "Sun, 06 Nov 1994 08:49:37 GMT"
/// ```
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthBytes = months.map { Array($0.utf8) }
    private static let weekdayBytes = weekdays.map { Array($0.utf8) }

    /// The date `text` names in any of the three forms, or `nil` when it is none of them.
    ///
    /// ```swift
    /// HTTPDate.parse("Sun Nov  6 08:49:37 1994")  // the same instant as the IMF-fixdate
    /// HTTPDate.parse("0")                         // nil: an invalid date (an `Expires: 0`)
    /// ```
    /// - Parameter text: The field value.
    /// - Returns: The instant, or `nil`.
    public static func parse(_ text: some StringProtocol) -> Date? {
        // Caches read dates on every lookup: the bytes are read in place, without splitting into
        // strings.
        parse(bytes: Array(text.utf8))
    }

    private static func parse(bytes: [UInt8]) -> Date? {
        var tokens: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == 0x20 {
                if let begun = start { tokens.append(begun..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { tokens.append(begun..<bytes.count) }
        func token(_ index: Int) -> ArraySlice<UInt8> { bytes[tokens[index]] }
        let gmt = Array("GMT".utf8)
        if tokens.count == 6, token(0).last == UInt8(ascii: ","), token(5).elementsEqual(gmt), token(1).count == 2,
            token(3).count == 4
        {
            return date(day: token(1), month: token(2), year: number(token(3)), time: token(4))
        }
        if tokens.count == 4, token(0).last == UInt8(ascii: ","), token(3).elementsEqual(gmt) {
            // RFC 850's two-digit year: 70–99 are read as 19xx, the rest as 20xx (RFC 9110 §5.6.7
            // asks for the century within 50 years of now, which this matches until 2049).
            let pieces = token(1).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            guard pieces.count == 3, pieces[0].count == 2, pieces[2].count == 2, let short = number(pieces[2]) else {
                return nil
            }
            return date(
                day: pieces[0],
                month: pieces[1],
                year: short >= 70 ? 1900 + short : 2000 + short,
                time: token(2)
            )
        }
        if tokens.count == 5, weekdayBytes.contains(where: { token(0).elementsEqual($0) }), token(4).count == 4 {
            return date(day: token(2), month: token(1), year: number(token(4)), time: token(3))
        }
        return nil
    }

    /// The IMF-fixdate of `date`, to the whole second.
    ///
    /// ```swift
    /// HTTPDate.format(Date(timeIntervalSince1970: 0))  // "Thu, 01 Jan 1970 00:00:00 GMT"
    /// ```
    /// - Parameter date: The instant.
    /// - Returns: The field value.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // IMF-fixdate's year is four digits (RFC 9110 §5.6.7): year 532 is "0532", or the value
        // would not read back.
        let digits = String(year)
        let fourDigitYear = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let time = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(weekday), \(two(day)) \(months[month - 1]) \(fourDigitYear) \(time) GMT"
    }

    /// The decimal number the bytes spell, or `nil` when they are not all digits (or too many).
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func date(day: ArraySlice<UInt8>, month: ArraySlice<UInt8>, year: Int?, time: ArraySlice<UInt8>)
        -> Date?
    {
        guard let day = number(day), let year,
            let monthIndex = monthBytes.firstIndex(where: { month.elementsEqual($0) }),
            time.count == 8, time[time.startIndex + 2] == UInt8(ascii: ":"),
            time[time.startIndex + 5] == UInt8(ascii: ":"),
            let hour = number(time.prefix(2)), let minute = number(time.dropFirst(3).prefix(2)),
            let second = number(time.suffix(2)),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`);
    /// package-wide, for the test kit's cookie dates.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = count + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
