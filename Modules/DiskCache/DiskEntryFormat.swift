internal import FoundationEssentials

/// The layout of one entry file: a fixed header, the key's UTF-8 bytes, then the value.
///
/// ```
/// offset 0   magic "CDC1"
///        4   key length     UInt32, little endian
///        8   value length   UInt64, little endian
///        16  checksum       UInt64, FNV-1a over key and value
///        24  key, then value
/// ```
///
/// The header states the exact file length, so a truncated file (a writer that died, a full disk,
/// a power loss before the data reached the disk) is recognised without reading the value, and the
/// checksum catches bytes that changed in place. The key is stored so that two keys whose file names
/// collide can never answer for each other.
enum DiskEntryFormat {
    static let headerSize = 24
    private static let magic: [UInt8] = Array("CDC1".utf8)

    static func header(key: String, value: Data) -> [UInt8] {
        var checksum = FNV1a()
        checksum.combine(key)
        value.withUnsafeBytes { checksum.combine($0) }
        var header = magic
        header.reserveCapacity(headerSize + key.utf8.count)
        append(UInt32(key.utf8.count), to: &header)
        append(UInt64(value.count), to: &header)
        append(checksum.value, to: &header)
        header.append(contentsOf: key.utf8)
        return header
    }

    /// What an entry file holds.
    enum Contents: Equatable {
        /// A complete, intact entry for the key asked for.
        case value(Data)
        /// A complete, intact entry for another key whose file name collides.
        case otherKey
        /// Truncated, over-long or changed bytes: the file must go.
        case damaged
    }

    static func contents(of file: Data, key: String) -> Contents {
        guard file.count >= headerSize else { return .damaged }
        return file.withUnsafeBytes { bytes -> Contents in
            guard bytes.prefix(4).elementsEqual(magic) else { return .damaged }
            let keyLength = Int(readUInt32(bytes, at: 4))
            let valueLength = readUInt64(bytes, at: 8)
            let stored = readUInt64(bytes, at: 16)
            guard valueLength <= UInt64(Int.max - headerSize - keyLength),
                headerSize + keyLength + Int(valueLength) == bytes.count
            else { return .damaged }
            let keyBytes = UnsafeRawBufferPointer(rebasing: bytes[headerSize..<(headerSize + keyLength)])
            let valueBytes = UnsafeRawBufferPointer(rebasing: bytes[(headerSize + keyLength)...])
            var checksum = FNV1a()
            checksum.combine(keyBytes)
            checksum.combine(valueBytes)
            guard checksum.value == stored else { return .damaged }
            guard keyBytes.elementsEqual(key.utf8) else { return .otherKey }
            return .value(Data(valueBytes))
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    private static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
