/// The `application/x-www-form-urlencoded` parser of the WHATWG URL Standard (§5.1,
/// https://url.spec.whatwg.org/#urlencoded-parsing), written from the specification for the round
/// trips of the query encoder: an independent reading of what the encoder writes.
///
/// It works on bytes and returns bytes, because a `.data` parameter need not be UTF-8; the
/// standard's last step (UTF-8 decoding without BOM) is left to the caller.
public enum FormURLEncodedParser {
    /// One name-value pair, percent-decoded, `+` read as a space.
    public struct Pair: Equatable, Sendable, CustomStringConvertible {
        public var name: [UInt8]
        public var value: [UInt8]

        public init(name: [UInt8], value: [UInt8]) {
            self.name = name
            self.value = value
        }

        public var description: String {
            "\(String(decoding: name, as: UTF8.self))=\(String(decoding: value, as: UTF8.self))"
        }
    }

    /// The pairs of `input`, in order.
    public static func parse(_ input: some Collection<UInt8>) -> [Pair] {
        // 1. Split on 0x26 (&); 2. skip empty sequences; 3. split each at its first 0x3D (=), a
        // sequence without one being a name with the empty value; 4. replace 0x2B (+) with 0x20 and
        // percent-decode name and value.
        input.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { sequence in
            let name: Array<UInt8>.SubSequence
            let value: Array<UInt8>.SubSequence
            let bytes = Array(sequence)
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                name = bytes[..<equals]
                value = bytes[(equals + 1)...]
            } else {
                name = bytes[...]
                value = []
            }
            return Pair(name: percentDecode(plusAsSpace(name)), value: percentDecode(plusAsSpace(value)))
        }
    }

    private static func plusAsSpace(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
    }

    /// Percent-decoding (URL Standard §1.3): `%` followed by two hex digits is that byte; any other
    /// `%` stays as it is.
    public static func percentDecode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
