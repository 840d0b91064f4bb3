/// What ``JSONParser`` learned about one number while scanning it, and the ``JSONValue`` it denotes.
///
/// The rules are ``JSONValue``'s, the ones `JSONDecoder` applies when it decodes `Int64` and then
/// `Double`:
///
/// - A number without fraction or exponent that fits in `Int64` is that integer, exactly.
/// - Any other number is first read as the nearest `Double` (RFC 8259 §6); a `Double` out of range
///   (`1e400`) is an error. If that double is a whole number in `Int64`'s range, the value is an
///   integer: below 2^53 the double itself (so `1.0`, `1e2` and `1e-400` are `.int`), from 2^53 up
///   the whole part of the decimal text where `JSONDecoder` reads one (``wholePart(of:)``), so that
///   `1.7537442883351706e+18` is `1753744288335170600`, not the double's `1753744288335170560`. `-0`, `-0.0` and anything that
///   rounds to negative zero (`-1e-400`) stay a double, the only way to keep the sign. This is the
///   one departure from `JSONDecoder`, on purpose: its `Double` decoding keeps the sign of `-0` and
///   `-0e5` but refuses `-0e1` and `-1e-400`, so that `JSONValue`'s `Decodable` path reads those
///   as `.int(0)`.
/// - Everything else is the double.
struct JSONNumberScan {
    var isNegative = false
    /// No `.` and no exponent.
    var isPlainInteger = true
    var integerDigits = 0
    var fractionDigits = 0
    /// The exponent as written, saturated at ±1,000,000.
    var exponent = 0
    /// The digits from the first non-zero one on, as long as they fit (`isExact`).
    private var significand: UInt64 = 0
    private var significantDigits = 0
    private var isExact = true

    /// Exact powers of ten a `Double` holds, for the fast path.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func addDigit(_ byte: UInt8) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if significand == 0, digit == 0 { return }
        guard significantDigits < 19 else {
            isExact = false
            return
        }
        significand = significand &* 10 &+ digit
        significantDigits += 1
    }

    /// The value, or `nil` for a number beyond a `Double`'s range.
    func value(text: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        if isPlainInteger, isExact {
            if isNegative {
                if significand == 0 { return .double(-0.0) }
                if significand <= UInt64(Int64.max) + 1 { return .int(Int64(bitPattern: 0 &- significand)) }
            } else if significand <= UInt64(Int64.max) {
                return .int(Int64(significand))
            }
        }
        guard let double = double(text: text), double.isFinite else { return nil }
        if double == double.rounded(.towardZero), double >= -0x1p63, double < 0x1p63 {
            if double.magnitude < 0x1p53 {
                if double == 0 { return double.sign == .minus ? .double(double) : .int(0) }
                return .int(Int64(double))
            }
            if let integer = wholePart(of: text) { return .int(integer) }
        }
        return .double(double)
    }

    /// The nearest double: exact arithmetic where both operands are exact doubles (Clinger's fast
    /// path, one correctly rounded operation), the standard library's correctly rounded conversion
    /// otherwise.
    private func double(text: UnsafeBufferPointer<UInt8>) -> Double? {
        let scale = exponent - fractionDigits
        if isExact, significand < 1 << 53, scale >= -22, scale <= 22 {
            var double = Double(significand)
            if scale < 0 {
                double /= Self.powersOfTen[-scale]
            } else {
                double *= Self.powersOfTen[scale]
            }
            return isNegative ? -double : double
        }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// The integer `JSONDecoder` reads from the decimal text of a whole double from 2^53 up: it
    /// reads the text again as a `Decimal`, whose 128-bit significand takes digits while they fit
    /// (the rest are dropped, not rounded) and then loses its trailing zeros; that significand must
    /// fit in 64 bits, and the whole part of the number in `Int64` (`-2^63` itself does not).
    /// `nil` where it does not.
    private func wholePart(of text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var decimalSignificand: UInt128 = 0
        var taken = 0
        var isFull = false
        var pointPosition = 0
        var seenPoint = false
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { break }
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { continue }
            if decimalSignificand == 0, digit == 0 {
                if seenPoint { pointPosition -= 1 }
                continue
            }
            if !seenPoint { pointPosition += 1 }
            guard !isFull else { continue }
            let (shifted, overflow) = decimalSignificand.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt128(digit))
            if overflow || carry {
                isFull = true
                continue
            }
            decimalSignificand = sum
            taken += 1
        }
        while decimalSignificand != 0, decimalSignificand % 10 == 0 {
            decimalSignificand /= 10
            taken -= 1
        }
        guard decimalSignificand != 0, let significand = UInt64(exactly: decimalSignificand) else { return nil }
        var scale = pointPosition + exponent - taken
        var magnitude = significand
        while scale > 0 {
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            magnitude = shifted
            scale -= 1
        }
        while scale < 0, magnitude > 0 {
            magnitude /= 10
            scale += 1
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return isNegative ? -Int64(magnitude) : Int64(magnitude)
    }
}
