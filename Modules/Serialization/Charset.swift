public import FoundationEssentials

/// A text encoding that ``StringResponseSerializer`` decodes without Foundation's `String.Encoding`.
///
/// Decoding is strict: bytes that are not valid in the charset are an error, never replaced with
/// U+FFFD, so text is never silently altered. Byte-order marks follow the Unicode Standard (§3.10,
/// and RFC 2781 for UTF-16): ``utf16`` and ``utf32`` read and remove a leading BOM and are
/// big-endian without one; the explicit ``utf16BigEndian``-style forms keep a leading U+FEFF as the
/// character it is; ``utf8`` removes a leading UTF-8 BOM, as browsers do. ``isoLatin1`` is true
/// ISO-8859-1, each byte one scalar U+0000–U+00FF (the WHATWG Encoding Standard, which browsers
/// follow, maps the `iso-8859-1` label to windows-1252 instead).
///
/// ```swift
/// let charset = Charset(name: "latin1")            // .isoLatin1
/// let text = try Charset.utf16.decode(Data([0xFE, 0xFF, 0x00, 0x41]))  // "A"
/// ```
public enum Charset: String, Sendable, Hashable, CaseIterable {
    /// UTF-8, the default when `Content-Type` names no charset.
    case utf8 = "UTF-8"
    /// UTF-16 with an optional byte-order mark; big-endian without one.
    case utf16 = "UTF-16"
    /// UTF-16, big-endian, no byte-order mark expected.
    case utf16BigEndian = "UTF-16BE"
    /// UTF-16, little-endian, no byte-order mark expected.
    case utf16LittleEndian = "UTF-16LE"
    /// UTF-32 with an optional byte-order mark; big-endian without one.
    case utf32 = "UTF-32"
    /// UTF-32, big-endian, no byte-order mark expected.
    case utf32BigEndian = "UTF-32BE"
    /// UTF-32, little-endian, no byte-order mark expected.
    case utf32LittleEndian = "UTF-32LE"
    /// 7-bit US-ASCII; any byte above 0x7F is an error.
    case usASCII = "US-ASCII"
    /// ISO-8859-1 (Latin-1): every byte is the scalar of the same value.
    case isoLatin1 = "ISO-8859-1"

    /// Why some bytes are not text in a charset.
    ///
    /// ```swift
    /// do { _ = try Charset.utf8.decode(Data([0x61, 0xFF])) } catch { print(error) }
    /// // "invalid UTF-8 at byte offset 1"
    /// ```
    public struct InvalidBytes: Error, Sendable, Hashable, CustomStringConvertible {
        /// The charset the bytes were decoded as.
        public let charset: Charset
        /// The offset of the first byte that could not be decoded, or of the end for a length error.
        public let byteOffset: Int
        /// What is wrong, in words.
        public let reason: String

        /// The reason.
        public var description: String { reason }
    }

    /// Finds a charset by an IANA name or a common alias, ignoring case and surrounding spaces.
    ///
    /// Accepted names: `utf-8`, `utf8`; `utf-16`, `utf16`, `utf-16be`, `utf-16le`; `utf-32`,
    /// `utf32`, `utf-32be`, `utf-32le`; `us-ascii`, `ascii`, `us`, `iso-ir-6`, `ansi_x3.4-1968`,
    /// `ansi_x3.4-1986`, `iso_646.irv:1991`, `iso646-us`, `ibm367`, `cp367`, `csascii`; `iso-8859-1`,
    /// `iso_8859-1`, `iso_8859-1:1987`, `iso8859-1`, `iso88591`, `iso-ir-100`, `latin1`, `latin-1`,
    /// `l1`, `ibm819`, `cp819`, `csisolatin1`.
    ///
    /// ```swift
    /// Charset(name: "ISO_8859-1")  // .isoLatin1
    /// Charset(name: "shift_jis")   // nil
    /// ```
    public init?(name: String) {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let key = String(name.drop(while: isSpace).reversed().drop(while: isSpace).reversed()).lowercased()
        guard let charset = Self.aliases[key] else { return nil }
        self = charset
    }

    /// Decodes bytes as text in this charset.
    ///
    /// ```swift
    /// let text = try Charset.isoLatin1.decode(Data([0x63, 0x61, 0x66, 0xE9]))  // "café"
    /// ```
    /// - Throws: ``InvalidBytes`` for bytes that are not valid in this charset.
    public func decode(_ data: Data) throws(InvalidBytes) -> String {
        let bytes = [UInt8](data)
        switch self {
        case .utf8:
            let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
            return try decodeUnits(bytes.dropFirst(hasBOM ? 3 : 0), as: UTF8.self, byteOffset: hasBOM ? 3 : 0)
        case .utf16, .utf16BigEndian, .utf16LittleEndian:
            return try decodeUTF16(bytes)
        case .utf32, .utf32BigEndian, .utf32LittleEndian:
            return try decodeUTF32(bytes)
        case .usASCII:
            if let index = bytes.firstIndex(where: { $0 > 0x7F }) {
                let hex = "0x" + String(bytes[index], radix: 16, uppercase: true)
                throw InvalidBytes(
                    charset: self,
                    byteOffset: index,
                    reason: "byte \(hex) at byte offset \(index) is not US-ASCII"
                )
            }
            return String(decoding: bytes, as: UTF8.self)
        case .isoLatin1:
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return String(scalars)
        }
    }

    private func decodeUTF16(_ bytes: [UInt8]) throws(InvalidBytes) -> String {
        guard bytes.count % 2 == 0 else {
            throw InvalidBytes(
                charset: self,
                byteOffset: bytes.count,
                reason: "\(bytes.count) bytes is not a whole number of UTF-16 code units"
            )
        }
        var bigEndian = self != .utf16LittleEndian
        var start = 0
        if self == .utf16, bytes.count >= 2 {
            if bytes[0] == 0xFE, bytes[1] == 0xFF {
                start = 2
            } else if bytes[0] == 0xFF, bytes[1] == 0xFE {
                (start, bigEndian) = (2, false)
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = start
        while index < bytes.count {
            let high = UInt16(bytes[index])
            let low = UInt16(bytes[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        return try decodeUnits(units, as: UTF16.self, byteOffset: start)
    }

    private func decodeUTF32(_ bytes: [UInt8]) throws(InvalidBytes) -> String {
        guard bytes.count % 4 == 0 else {
            throw InvalidBytes(
                charset: self,
                byteOffset: bytes.count,
                reason: "\(bytes.count) bytes is not a whole number of UTF-32 code units"
            )
        }
        var bigEndian = self != .utf32LittleEndian
        var start = 0
        if self == .utf32, bytes.count >= 4 {
            if bytes[0...3].elementsEqual([0x00, 0x00, 0xFE, 0xFF]) {
                start = 4
            } else if bytes[0...3].elementsEqual([0xFF, 0xFE, 0x00, 0x00]) {
                (start, bigEndian) = (4, false)
            }
        }
        var units: [UInt32] = []
        units.reserveCapacity(bytes.count / 4)
        var index = start
        while index < bytes.count {
            let quad = bytes[index..<index + 4].map(UInt32.init)
            units.append(
                bigEndian
                    ? quad[0] << 24 | quad[1] << 16 | quad[2] << 8 | quad[3]
                    : quad[3] << 24 | quad[2] << 16 | quad[1] << 8 | quad[0]
            )
            index += 4
        }
        return try decodeUnits(units, as: UTF32.self, byteOffset: start)
    }

    /// Validates and decodes code units; on failure, finds the first bad unit to say where it is.
    private func decodeUnits<Encoding: Unicode.Encoding>(
        _ units: some Collection<Encoding.CodeUnit>,
        as encoding: Encoding.Type,
        byteOffset start: Int
    ) throws(InvalidBytes) -> String {
        if let text = String(validating: units, as: encoding) { return text }
        let unitSize = MemoryLayout<Encoding.CodeUnit>.size
        var parser = Encoding.ForwardParser()
        var iterator = units.makeIterator()
        var offset = 0
        scan: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error, .emptyInput: break scan
            }
        }
        let byteOffset = start + offset * unitSize
        throw InvalidBytes(
            charset: self,
            byteOffset: byteOffset,
            reason: "invalid \(rawValue) at byte offset \(byteOffset)"
        )
    }

    private static let aliases: [String: Charset] = {
        var table: [String: Charset] = [:]
        let names: [Charset: [String]] = [
            .utf8: ["utf-8", "utf8"],
            .utf16: ["utf-16", "utf16"],
            .utf16BigEndian: ["utf-16be", "utf16be"],
            .utf16LittleEndian: ["utf-16le", "utf16le"],
            .utf32: ["utf-32", "utf32"],
            .utf32BigEndian: ["utf-32be", "utf32be"],
            .utf32LittleEndian: ["utf-32le", "utf32le"],
            .usASCII: [
                "us-ascii", "ascii", "us", "iso-ir-6", "ansi_x3.4-1968", "ansi_x3.4-1986", "iso_646.irv:1991",
                "iso646-us", "ibm367", "cp367", "csascii",
            ],
            .isoLatin1: [
                "iso-8859-1", "iso_8859-1", "iso_8859-1:1987", "iso8859-1", "iso88591", "iso-ir-100", "latin1",
                "latin-1", "l1", "ibm819", "cp819", "csisolatin1",
            ],
        ]
        for (charset, aliases) in names {
            for alias in aliases { table[alias] = charset }
        }
        return table
    }()
}
