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
/// match). Texts of up to 15 bytes, which Swift keeps inline without allocating, have a table of
/// their own keyed by the bytes themselves: making one (validating and packing it) cost more than
/// finding it there, and most field names and many values are that short. The tables are small and
/// fixed (a newer text takes an older one's slot), so a server cannot make them grow.
///
/// Loop thread only, like the transfers that parse heads with it.
final class HeaderStringCache {
    /// Slots in the table (a power of two).
    static let slotCount = 64
    /// Slots in the short texts' table (a power of two): more than the long one's, since a head has
    /// more short texts, and two that share a slot would push each other out on every response.
    static let shortSlotCount = 256
    /// The longest text kept; longer ones are made each time.
    static let maximumLength = 256

    private struct Entry {
        var hash: UInt64 = 0
        var string: String?
    }

    /// A short text and its bytes, packed in two words with the length in the top byte (a text of
    /// up to 15 bytes leaves it free), so that equal keys mean equal bytes.
    private struct ShortEntry {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var string = ""
    }

    /// Raw storage, not an Array: a lookup then pays for no bounds or exclusivity checks, which
    /// cost as much as the allocation it saves.
    private let entries: UnsafeMutablePointer<Entry>
    private let shortEntries: UnsafeMutablePointer<ShortEntry>

    init() {
        entries = .allocate(capacity: Self.slotCount)
        entries.initialize(repeating: Entry(), count: Self.slotCount)
        shortEntries = .allocate(capacity: Self.shortSlotCount)
        shortEntries.initialize(repeating: ShortEntry(), count: Self.shortSlotCount)
    }

    deinit {
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
        shortEntries.deinitialize(count: Self.shortSlotCount)
        shortEntries.deallocate()
    }

    /// The text of `bytes`: a String seen before when there is one, else a new one (then kept).
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.count <= 15 { return shortString(bytes) }
        guard bytes.count <= Self.maximumLength else { return String(decoding: bytes, as: UTF8.self) }
        let hash = Self.hash(bytes)
        let entry = entries + Int(truncatingIfNeeded: hash >> 58)  // the top 6 bits: 64 slots
        if entry.pointee.hash == hash, let cached = entry.pointee.string, Self.has(cached, bytes) {
            return cached
        }
        let made = String(decoding: bytes, as: UTF8.self)
        entry.pointee = Entry(hash: hash, string: made)
        return made
    }

    /// The text of up to 15 `bytes`, from the short table when it holds them.
    private func shortString(_ bytes: UnsafeRawBufferPointer) -> String {
        guard !bytes.isEmpty else { return "" }
        var words: (low: UInt64, high: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        let high = words.high | UInt64(bytes.count) << 56
        // The top 8 bits pick one of the 256 slots.
        let entry = shortEntries + Int(truncatingIfNeeded: Self.mix(Self.mix(0, words.low), high) >> 56)
        if entry.pointee.low == words.low && entry.pointee.high == high { return entry.pointee.string }
        let made = String(decoding: bytes, as: UTF8.self)
        entry.pointee = ShortEntry(low: words.low, high: high, string: made)
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
