/// The Strings of header names and values recently seen on a transport, so that a response head
/// whose fields repeat those of earlier ones (`Content-Type`, `Server`, `Cache-Control`, and within a
/// second even `Date`) shares their storage instead of allocating a String per field.
///
/// A String comes back only when its UTF-8 is exactly the bytes asked for, so a lookup returns what
/// `String(decoding:as:)` would make (bytes that are not valid UTF-8 are repaired there and never
/// match). Texts of up to 15 bytes are made directly: Swift keeps them inline, without allocating.
/// The table is small and fixed (a newer text takes an older one's slot), so a server cannot make
/// it grow.
///
/// Loop thread only, like the transfers that parse heads with it.
final class HeaderStringCache {
    /// Slots in the table (a power of two).
    static let slotCount = 64
    /// The longest text kept; longer ones are made each time.
    static let maximumLength = 256

    private var hashes = [UInt64](repeating: 0, count: HeaderStringCache.slotCount)
    private var strings = [String?](repeating: nil, count: HeaderStringCache.slotCount)

    /// The text of `bytes`: a String seen before when there is one, else a new one (then kept).
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > 15, bytes.count <= Self.maximumLength else {
            return String(decoding: bytes, as: UTF8.self)
        }
        // FNV-1a (64-bit): one multiply per byte, enough to spread header texts over the slots.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        if hashes[slot] == hash, let cached = strings[slot], Self.has(cached, bytes) {
            return cached
        }
        let made = String(decoding: bytes, as: UTF8.self)
        hashes[slot] = hash
        strings[slot] = made
        return made
    }

    private static func has(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count && stored.elementsEqual(bytes)
        } ?? false
    }
}
