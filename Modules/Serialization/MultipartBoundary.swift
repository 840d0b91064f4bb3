/// Boundary generation and validation for multipart bodies.
enum MultipartBoundary {
    /// AFNetworking's format: `Boundary+` and two random 32-bit numbers as 8 uppercase, zero-padded hex
    /// digits each, 25 characters in all.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let first = UInt32.random(in: .min ... .max, using: &generator)
        let second = UInt32.random(in: .min ... .max, using: &generator)
        return "Boundary+" + hex(first) + hex(second)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// RFC 2046 §5.1.1: `boundary := 0*69<bchars> bcharsnospace`, 1 to 70 characters.
    static func validate(_ boundary: String) throws(SerializationError) {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count) else {
            throw MultipartErrors.invalidPart(
                "a boundary must have 1 to 70 characters (RFC 2046 §5.1.1); \(boundary.debugDescription) has \(bytes.count)"
            )
        }
        if let bad = bytes.first(where: { !isBoundaryCharacter($0) }) {
            throw MultipartErrors.invalidPart(
                "the boundary \(boundary.debugDescription) contains the byte 0x\(hex(UInt32(bad)).suffix(2)), which RFC 2046 §5.1.1 does not allow"
            )
        }
        if bytes.last == UInt8(ascii: " ") {
            throw MultipartErrors.invalidPart("a boundary may not end with a space (RFC 2046 §5.1.1)")
        }
    }

    /// RFC 2046 `bchars`: digits, letters, `'()+_,-./:=?` and space.
    static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: " "):
            return true
        default:
            return false
        }
    }

    /// The `boundary` parameter as it goes into `Content-Type`.
    ///
    /// AFNetworking never quotes it, and its own boundaries are RFC 2045 tokens, so they go out bare.
    /// A caller's boundary may hold characters that RFC 2045 §5.1 calls `tspecials` (space, `(`, `)`,
    /// `,`, `/`, `:`, `=`, `?`); those must be quoted or a parser stops at the first one.
    static func parameterValue(_ boundary: String) -> String {
        let needsQuotes = boundary.utf8.contains { byte in
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "/"),
                UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"):
                return true
            default:
                return false
            }
        }
        return needsQuotes ? "\"" + boundary + "\"" : boundary
    }
}
