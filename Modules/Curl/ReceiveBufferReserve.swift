#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Room in the loop thread's heap for libcurl's receive buffers, kept below a small block the loop
/// holds, so that their pages stay mapped from one transfer to the next.
///
/// libcurl allocates each transfer's receive buffer (`CURLOPT_BUFFERSIZE` + 1 bytes, 256 KiB by
/// default) when the transfer connects and frees it when the transfer is done, on the loop thread.
/// glibc's allocator gives memory back from the top of a thread's heap whenever a free of 64 KiB or
/// more leaves the top chunk over its trim threshold (`madvise(MADV_DONTNEED)`), and the next
/// transfer's buffer then faults its pages in again: about one page fault per small request at
/// concurrency 32, and a `madvise` (with its TLB shootdowns) every few dozen.
///
/// The reserve allocates `count` buffers of the receive size, then the pin (a few bytes carved from
/// the top, above them), then frees the buffers: they coalesce into one free run below the pin that
/// the allocator cannot trim, since it trims only the top, and from which the buffers of later
/// transfers are served. A first buffer is allocated and freed alone before that: a first
/// allocation over the initial mmap threshold (128 KiB) is mapped on its own, and its free raises
/// the threshold so that the reserved buffers come from the heap (libcurl's first transfer raises
/// it alike, so the process's allocator ends up as it would have). Other allocators (musl, the
/// sanitizers') serve the same calls without the effect and without harm.
///
/// Loop thread only: the reserve must be made on the thread whose heap (arena) libcurl allocates
/// from.
struct ReceiveBufferReserve: ~Copyable {
    /// The most memory the reserve sets aside, whatever the receive buffer size: the pages are only
    /// backed once transfers use them, but each one used stays resident.
    static let budget = 16 << 20

    /// How many buffers of `bufferSize` bytes the reserve holds: as many as running transfers that
    /// want them at once (`concurrentTransfers`), at most ``budget`` bytes; 0 when one buffer alone
    /// is over the budget.
    static func count(bufferSize: Int, concurrentTransfers: Int) -> Int {
        guard bufferSize > 0 else { return 0 }
        return max(0, min(concurrentTransfers, budget / bufferSize))
    }

    private let pin: UnsafeMutableRawPointer?

    /// Sets aside room in the calling thread's heap for as many buffers of `bufferSize` bytes as
    /// ``count(bufferSize:concurrentTransfers:)`` allows.
    init(bufferSize: Int, concurrentTransfers: Int) {
        let count = Self.count(bufferSize: bufferSize, concurrentTransfers: concurrentTransfers)
        guard count > 0 else {
            pin = nil
            return
        }
        free(malloc(bufferSize))
        var buffers: [UnsafeMutableRawPointer?] = []
        buffers.reserveCapacity(count)
        for _ in 0..<count { buffers.append(malloc(bufferSize)) }
        pin = malloc(16)
        for buffer in buffers { free(buffer) }
    }

    deinit {
        free(pin)
    }
}
