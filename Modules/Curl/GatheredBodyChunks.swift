internal import FoundationEssentials

/// Consecutive body chunks of one transfer gathered into one pooled buffer, so that they reach the
/// consumer as one `.body` event.
///
/// libcurl 7.88 hands the write callback at most `CURL_MAX_WRITE_SIZE` (16 KiB) at a time, however
/// much one read of the socket brought: a 100 MiB download was some 6,400 writes, and each one cost
/// an event, a `Data` and its storage (freed by the consumer on another thread), a take from the
/// consumer's channel and an iteration of its loop. Gathered, a read of up to ``capacity`` bytes is
/// one of each. The bytes are copied once, as before: from libcurl's buffer into the pooled one.
///
/// The owner hands the gathered bytes on (``take(from:)``) before any later event of the transfer
/// and at the end of each pass of the loop, so the consumer sees them as soon as it would have seen
/// their chunks. A buffer only partly filled goes out as a copy in a buffer of its own size (or a
/// `Data` of its own under ``BodyChunkBuffers/smallestPooledSize``) and is kept for the next
/// chunks, so a `Data` never holds more than twice its size, as for a single chunk.
///
/// Loop thread only, like the ``ResponseBodyDelivery`` that holds it; the buffer belongs to the
/// stored instance, which gives it back with ``release(to:)`` when the transfer ends.
struct GatheredBodyChunks {
    /// The buffer's size: one read of libcurl's default receive buffer.
    static var capacity: Int { 256 << 10 }

    private static let sizeIndex = BodyChunkBuffers.sizeIndex(for: capacity)

    private var buffer: UnsafeMutableRawPointer?
    /// The bytes gathered and not yet taken.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Whether `chunk` can be added now: gathering starts with a chunk of a pooled size (smaller ones
    /// are cheaper as a `Data` of their own) and takes what fits after that.
    func accepts(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard Self.sizeIndex != nil, chunk.count <= Self.capacity - count else { return false }
        return count > 0 || chunk.count >= BodyChunkBuffers.smallestPooledSize
    }

    /// Copies `chunk` in after the bytes already gathered; only after ``accepts(_:)`` said yes.
    mutating func append(_ chunk: UnsafeRawBufferPointer, from buffers: BodyChunkBuffers) {
        guard let sizeIndex = Self.sizeIndex, let source = chunk.baseAddress else { return }
        let target = buffer ?? buffers.takeBuffer(sizeIndex: sizeIndex)
        buffer = target
        (target + count).copyMemory(from: source, byteCount: chunk.count)
        count += chunk.count
    }

    /// The gathered bytes as one `Data`, or `nil` when there are none; empty afterwards.
    mutating func take(from buffers: BodyChunkBuffers) -> Data? {
        guard count > 0, let buffer, let sizeIndex = Self.sizeIndex else { return nil }
        let gathered = count
        count = 0
        if BodyChunkBuffers.sizeIndex(for: gathered) == sizeIndex {
            // Worth its buffer: handed over whole, and the next chunks get another.
            self.buffer = nil
            return buffers.data(handingOver: buffer, count: gathered, sizeIndex: sizeIndex)
        }
        return buffers.data(copying: UnsafeRawBufferPointer(start: buffer, count: gathered))
    }

    /// Gives the buffer back to the pool (the transfer is over); nothing gathered may be left.
    mutating func release(to buffers: BodyChunkBuffers) {
        guard let buffer, let sizeIndex = Self.sizeIndex else { return }
        self.buffer = nil
        count = 0
        buffers.giveBack(buffer, sizeIndex: sizeIndex)
    }
}
