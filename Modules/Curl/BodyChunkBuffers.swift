internal import CourierLocking
internal import FoundationEssentials

/// Reusable memory for the body chunks a loop hands to consumers as `Data`.
///
/// A chunk copied into a new `Data` costs a heap block of its size. Large chunks (a fast download's
/// 16 KiB writes, gathered per network read by ``GatheredBodyChunks``) were the expensive case: glibc serves them from the loop thread's
/// arena, the consumer frees them on another thread, and the arena then gives the emptied top of
/// its heap back to the kernel (`madvise(MADV_DONTNEED)` in glibc's `heap_trim`), so the next chunk
/// faults its pages in again, zeroed. A 100 MiB download took about 8,500 page faults per 100 MiB
/// that way. Here a large chunk's bytes go into a buffer kept from an earlier chunk, and the
/// buffer comes back when the consumer drops the `Data`.
///
/// Buffers come in power-of-two sizes from ``smallestPooledSize`` to ``largestPooledSize``, so a
/// chunk never holds more than twice its size; idle buffers are kept up to ``idleByteLimit`` in all
/// (the rest are freed): enough for a download's chunks in flight under the default 1 MiB
/// high-water mark, so that a steady download allocates nothing new.
/// Smaller chunks are copied into a `Data` of their own as before: they come from the arena's
/// small bins, which are not trimmed.
///
/// Used from the loop thread (``data(copying:)``) and from any thread (a `Data`'s deallocator).
final class BodyChunkBuffers: Sendable {
    /// Chunks smaller than this are copied into a `Data` of their own.
    static let smallestPooledSize = 16 << 10
    /// Chunks larger than this are copied into a `Data` of their own: libcurl's receive buffer
    /// is at most 512 KiB (`CURL_MAX_READ_SIZE`), so only a very large buffer setting reaches it.
    static let largestPooledSize = 512 << 10
    /// The most bytes of idle buffers kept.
    static let idleByteLimit = 2 << 20

    /// The sizes, smallest first: 16, 32, …, 512 KiB.
    private static let sizes: [Int] = {
        var sizes: [Int] = []
        var size = smallestPooledSize
        while size <= largestPooledSize {
            sizes.append(size)
            size *= 2
        }
        return sizes
    }()

    /// Idle buffers, one list per size in ``sizes``' order, and their bytes in all. The addresses
    /// are stored as integers (a raw pointer is not `Sendable`); each is the start of a buffer only
    /// this pool owns.
    private struct Idle {
        var lists: [[UInt]] = Array(repeating: [], count: sizes.count)
        var bytes = 0
    }

    private let idle = Lock(Idle())

    deinit {
        idle.withLock { idle in
            for list in idle.lists {
                for address in list { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
            }
        }
    }

    /// A `Data` holding a copy of `bytes`.
    func data(copying bytes: UnsafeRawBufferPointer) -> Data {
        guard let sizeIndex = Self.sizeIndex(for: bytes.count), let source = bytes.baseAddress else {
            return Data(bytes)
        }
        let buffer = takeBuffer(sizeIndex: sizeIndex)
        buffer.copyMemory(from: source, byteCount: bytes.count)
        return data(handingOver: buffer, count: bytes.count, sizeIndex: sizeIndex)
    }

    /// A `Data` over the first `count` bytes of `buffer` (taken with ``takeBuffer(sizeIndex:)``),
    /// which comes back to the pool when the `Data` is dropped.
    func data(handingOver buffer: UnsafeMutableRawPointer, count: Int, sizeIndex: Int) -> Data {
        Data(
            bytesNoCopy: buffer,
            count: count,
            deallocator: .custom { [self] pointer, _ in self.giveBack(pointer, sizeIndex: sizeIndex) }
        )
    }

    /// The bytes a buffer of the size class `sizeIndex` holds.
    static func size(ofIndex sizeIndex: Int) -> Int { sizes[sizeIndex] }

    /// The number of idle buffers (for tests).
    var idleCount: Int {
        idle.withLock { $0.lists.reduce(0) { $0 + $1.count } }
    }

    /// The index in ``sizes`` of the smallest size that holds `count` bytes, or `nil` when such a
    /// chunk is not pooled.
    static func sizeIndex(for count: Int) -> Int? {
        guard count >= smallestPooledSize, count <= largestPooledSize else { return nil }
        return sizes.firstIndex { $0 >= count }
    }

    /// A buffer of the size class `sizeIndex` (see ``sizeIndex(for:)``), idle or new, for a caller
    /// that fills it and then hands it over (``data(handingOver:count:sizeIndex:)``) or gives it back
    /// (``giveBack(_:sizeIndex:)``).
    func takeBuffer(sizeIndex: Int) -> UnsafeMutableRawPointer {
        let address = idle.withLock { idle -> UInt? in
            guard let address = idle.lists[sizeIndex].popLast() else { return nil }
            idle.bytes -= Self.sizes[sizeIndex]
            return address
        }
        if let address, let buffer = UnsafeMutableRawPointer(bitPattern: address) { return buffer }
        return UnsafeMutableRawPointer.allocate(byteCount: Self.sizes[sizeIndex], alignment: 16)
    }

    /// Returns a buffer taken with ``takeBuffer(sizeIndex:)`` that was not handed over.
    func giveBack(_ buffer: UnsafeMutableRawPointer, sizeIndex: Int) {
        let size = Self.sizes[sizeIndex]
        let kept = idle.withLock { idle -> Bool in
            guard idle.bytes + size <= Self.idleByteLimit else { return false }
            idle.lists[sizeIndex].append(UInt(bitPattern: buffer))
            idle.bytes += size
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
