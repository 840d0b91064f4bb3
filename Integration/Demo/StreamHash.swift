/// FNV-1a, 64-bit (Fowler–Noll–Vo): a hash the demo folds each body chunk into as it arrives, so a
/// 100 MiB body is checked without ever being held. Not cryptographic; it catches lost, repeated or
/// reordered chunks, which is what a streaming check needs.
struct StreamHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// 16 lowercase hex digits.
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
