/// A growable byte buffer with ``PercentEscaping``'s escaping built in, for the query and form
/// writers' hot path.
///
/// `[UInt8].append` checks uniqueness and capacity on every byte; this buffer reserves the worst case
/// (three bytes out per byte in) once per string and then writes through a pointer. It is
/// non-copyable, so its memory can never be freed twice.
///
/// It can start in caller-provided scratch memory (a stack allocation) and moves to the heap only if
/// it outgrows it, which saves two allocations per encode; such a buffer must not outlive the
/// scratch memory.
struct EscapingByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private var ownsMemory: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        ownsMemory = true
    }

    /// A buffer that writes into `scratch` until it needs more room.
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        if let start = scratch.baseAddress, scratch.count >= 16 {
            base = start
            capacity = scratch.count
            ownsMemory = false
        } else {
            capacity = 64
            base = .allocate(capacity: capacity)
            ownsMemory = true
        }
    }

    deinit {
        if ownsMemory { base.deallocate() }
    }

    /// ``PercentEscaping/isUnescaped(_:)`` as two 64-bit masks over ASCII (letters, digits, `-._~/?`);
    /// a unit test checks that they agree with it for all 256 byte values.
    static let unescapedLow: UInt64 = 0x83FF_E000_0000_0000
    static let unescapedHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x37
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsMemory { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsMemory = true
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the contents of another buffer (the field prefix onto the output).
    mutating func append(_ other: borrowing EscapingByteBuffer) {
        other.withBytes { append($0) }
    }

    /// Appends ASCII text that needs no escaping, such as `%5B`.
    mutating func append(ascii text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Drops bytes back to `newCount` (popping a field suffix off the prefix stack).
    mutating func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    /// Appends `bytes` escaped as ``PercentEscaping`` escapes them.
    mutating func appendEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>,
        spaceAsPlus: Bool = false,
        unescaped: ASCIIMask = .unescaped
    ) {
        reserve(bytes.count * 3)
        var out = base + count
        for byte in bytes {
            if unescaped.contains(byte) {
                out.pointee = byte
                out += 1
            } else if spaceAsPlus && byte == 0x20 {
                out.pointee = UInt8(ascii: "+")
                out += 1
            } else {
                out[0] = UInt8(ascii: "%")
                out[1] = Self.hexDigit(byte >> 4)
                out[2] = Self.hexDigit(byte & 0x0F)
                out += 3
            }
        }
        count = out - base
    }

    /// Appends the escaped UTF-8 of `string`.
    mutating func appendEscaped(_ string: String, spaceAsPlus: Bool = false, unescaped: ASCIIMask = .unescaped) {
        // Borrow native UTF-8 without copying the string; bridged strings take the copying path.
        let done: Void? = string.utf8.withContiguousStorageIfAvailable {
            appendEscaped($0, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
        }
        if done == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0, spaceAsPlus: spaceAsPlus, unescaped: unescaped) }
        }
    }

    /// Appends `value` in decimal.
    mutating func appendDecimal(_ value: Int) {
        reserve(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        // The magnitude as UInt, so that Int.min does not overflow; digits go in backwards, then flip.
        var magnitude = value.magnitude
        let start = count
        repeat {
            base[count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
            count += 1
            magnitude /= 10
        } while magnitude > 0
        var digits = UnsafeMutableBufferPointer(start: base + start, count: count - start)
        digits.reverse()
    }

    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes as an array.
    var bytes: [UInt8] {
        withBytes { Array($0) }
    }

    /// The bytes as a string; the writers emit ASCII only, so nothing is ever repaired.
    var string: String {
        withBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { target in
                _ = target.initialize(from: bytes)
                return bytes.count
            }
        }
    }
}

/// A set of ASCII bytes as two 64-bit masks; bytes of 128 and above are never members, so UTF-8
/// outside ASCII is always escaped.
struct ASCIIMask: Sendable, Hashable {
    var low: UInt64
    var high: UInt64

    /// ``PercentEscaping``'s unescaped set.
    static let unescaped = ASCIIMask(low: EscapingByteBuffer.unescapedLow, high: EscapingByteBuffer.unescapedHigh)

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return (low >> UInt64(byte)) & 1 != 0 }
        if byte < 128 { return (high >> UInt64(byte &- 64)) & 1 != 0 }
        return false
    }

    mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte &- 64) }
    }

    mutating func remove(_ byte: UInt8) {
        if byte < 64 { low &= ~(1 << UInt64(byte)) } else if byte < 128 { high &= ~(1 << UInt64(byte &- 64)) }
    }
}
