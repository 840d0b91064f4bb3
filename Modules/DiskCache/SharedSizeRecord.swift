#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The entry files' total size, kept in a small file in the store's directory so that every
/// process writing there adds to one figure.
///
/// A count held in each process's memory misses the other processes' writes: two processes that
/// each believed the store half full could together fill it twice over before either swept. Here
/// a writer adds what it changed under `flock` on the record file, so the next writer in any
/// process sees the whole directory's size and sweeps when it is over.
///
/// The lock is held for one 8-byte read and write, never across a directory listing (sweeps
/// exclude each other on a lock of their own), so a writer never waits behind a sweep. An empty
/// or unreadable record means "unknown": the next write sweeps, and the sweep's count fills it in.
struct SharedSizeRecord: Sendable {
    let path: String

    /// Replaces the recorded size (`nil` when unknown) with what `change` returns, under the
    /// record's lock, and returns the new size; `nil` also when the record cannot be opened, so
    /// that the caller counts the directory instead of trusting a figure it could not update.
    @discardableResult
    func update(_ change: (Int?) -> Int?) -> Int? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        // Closing the only descriptor of this open file releases the lock, on every path.
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return nil }
        }
        let size = change(readSize(descriptor))
        writeSize(size, to: descriptor)
        return size
    }

    /// The recorded size, read under the record's lock.
    func current() -> Int? {
        var size: Int?
        update { current in
            size = current
            return current
        }
        return size
    }

    private func readSize(_ descriptor: Int32) -> Int? {
        var stored: Int64 = -1
        let count = withUnsafeMutableBytes(of: &stored) { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let size = Int(Int64(littleEndian: stored))
        return count == MemoryLayout<Int64>.size && size >= 0 ? size : nil
    }

    private func writeSize(_ size: Int?, to descriptor: Int32) {
        guard let size else {
            _ = ftruncate(descriptor, 0)
            return
        }
        var stored = Int64(size).littleEndian
        let count = withUnsafeBytes(of: &stored) { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        // A short write leaves a record that reads as unknown, which only costs a count.
        if count != MemoryLayout<Int64>.size { _ = ftruncate(descriptor, 0) }
    }
}
