/// A streaming UTF-8 validator: bytes go in chunk by chunk, split anywhere, and it fails on the
/// first byte after which no continuation could make the text valid.
///
/// A text message arrives in fragments (and in inflated chunks) that may split a character, and
/// RFC 6455 §8.1 has the connection fail as soon as invalid UTF-8 is seen, which Autobahn's 6.x
/// cases check by sending the valid prefix first; `String(validating:)` can do neither. The
/// automaton is RFC 3629 §4's byte-sequence table: each state is how many continuation bytes are
/// still due and the range the next one must fall in (narrower after E0, ED, F0 and F4, which is
/// what excludes overlong forms, surrogates and code points above U+10FFFF).
///
/// ```swift
/// var validator = UTF8StreamValidator()
/// validator.validate([0xCE, 0xBA, 0xE1])  // true: a valid prefix
/// validator.isComplete                    // false: "\u{1F7}" is cut short
/// validator.validate([0xBD, 0xB9])        // true, and now complete
/// ```
struct UTF8StreamValidator: Sendable, Hashable {
    /// Continuation bytes still due for the current character.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must fall in.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Sticky: once a byte is refused, every later call fails.
    private(set) var hasFailed = false

    /// Creates a validator at the start of a text.
    init() {}

    /// Whether every character begun has been finished: the text so far is valid UTF-8 as a whole.
    var isComplete: Bool { !hasFailed && remaining == 0 }

    /// Checks the next bytes of the text.
    ///
    /// - Parameter bytes: The next bytes, continuing where the last call stopped.
    /// - Returns: Whether the text so far is still a prefix of some valid UTF-8; `false` from the
    ///   first invalid byte on.
    @discardableResult
    mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
        guard !hasFailed else { return false }
        for byte in bytes where !accept(byte) {
            hasFailed = true
            return false
        }
        return true
    }

    private mutating func accept(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower && byte <= upper else { return false }
            remaining -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: expect(1, 0x80, 0xBF)
        case 0xE0: expect(2, 0xA0, 0xBF)  // no overlong three-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: expect(2, 0x80, 0xBF)
        case 0xED: expect(2, 0x80, 0x9F)  // no UTF-16 surrogates
        case 0xF0: expect(3, 0x90, 0xBF)  // no overlong four-byte forms
        case 0xF1...0xF3: expect(3, 0x80, 0xBF)
        case 0xF4: expect(3, 0x80, 0x8F)  // nothing above U+10FFFF
        default: return false  // continuation bytes out of place, C0, C1, F5–FF
        }
        return true
    }

    private mutating func expect(_ count: UInt8, _ lower: UInt8, _ upper: UInt8) {
        remaining = count
        self.lower = lower
        self.upper = upper
    }
}
