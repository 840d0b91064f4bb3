#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

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

    private struct Entry {
        var hash: UInt64 = 0
        var string: String?
    }

    /// Raw storage, not an Array: a lookup then pays for no bounds or exclusivity checks, which
    /// cost as much as the allocation it saves.
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.slotCount)
        entries.initialize(repeating: Entry(), count: Self.slotCount)
    }

    deinit {
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
    }

    /// The text of `bytes`: a String seen before when there is one, else a new one (then kept).
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > 15, bytes.count <= Self.maximumLength else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let hash = Self.hash(bytes)
        let entry = entries + Int(truncatingIfNeeded: hash >> 58)  // the top 6 bits: 64 slots
        if entry.pointee.hash == hash, let cached = entry.pointee.string, Self.has(cached, bytes) {
            return cached
        }
        let made = String(decoding: bytes, as: UTF8.self)
        entry.pointee = Entry(hash: hash, string: made)
        return made
    }

    /// Picks the slot only (`has` decides a match): the length and the first, middle and last eight
    /// bytes, which tell apart the values that differ in a few characters (dates, counters).
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let first = bytes.loadUnaligned(as: UInt64.self)
        let middle = bytes.loadUnaligned(fromByteOffset: bytes.count / 2 - 4, as: UInt64.self)
        let last = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        hash = mix(hash, first)
        hash = mix(hash, middle)
        hash = mix(hash, last)
        return hash | 1  // never 0, the empty slot's
    }

    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 29)
    }

    private static func has(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var string = string
        return string.withUTF8 { stored in
            guard stored.count == bytes.count, let storedBase = stored.baseAddress, let base = bytes.baseAddress
            else { return false }
            return memcmp(storedBase, base, bytes.count) == 0
        }
    }
}
