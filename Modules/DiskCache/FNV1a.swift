/// 64-bit FNV-1a: the entry checksum and the file-name hash.
///
/// Every step is a bijection of the state for a given input byte, so any single changed byte
/// changes the result; that is what a truncation and bit-flip check needs, at no cost in code.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = hash
    }

    mutating func combine(_ text: String) {
        var utf8 = text
        utf8.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }
}
