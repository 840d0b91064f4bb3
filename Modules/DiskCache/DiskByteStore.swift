public import FoundationEssentials
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A size-limited store of byte values on disk, keyed by strings, shared safely between threads and
/// processes.
///
/// Each entry is one file in ``directory``, named after a hash of its key and holding a header with
/// the key, the value's length and a checksum. Writers write a temporary file and rename it into
/// place, so a reader in any process sees either the old entry or the new one, never half of one.
/// A truncated or corrupt file (a writer killed mid-write, a full disk, a power loss) is a miss and
/// is removed; nothing in a damaged file can crash the reader or be returned as a value.
///
/// When the files grow past ``Configuration/sizeLimit``, a sweep removes the least recently used
/// entries (by the time of their last read or write) until they fit in
/// ``Configuration/sizeAfterSweep``. Sweeps in different processes exclude each other with `flock`
/// on a lock file; one that finds the lock taken leaves the work to the process that holds it and
/// never waits.
///
/// The limit holds for the directory, not for each process: every store on the directory, in
/// any process, adds what it writes or removes to one size record kept in the directory, so a
/// write that takes the files past the limit sweeps even when most of them came from another
/// process. Only writes that land while another process's sweep is listing the directory can
/// leave it over the limit, by those writes, until the next write sweeps.
///
/// ```swift
/// let directory = try CacheDirectory.userCacheDirectory(named: "com.example.thumbnails")
/// let store = try DiskByteStore(directory: directory)
/// try store.store(Data("hello".utf8), forKey: "greeting")
/// let bytes = store.value(forKey: "greeting")  // the 5 bytes
/// ```
///
/// - Important: Every call does its file-system work on the calling thread and returns when it is
///   done. Reads are one `open` and `read`; writes are one `open`, `write` and `rename`, then an
///   update of the 8-byte size record under `flock`, the only lock a call waits for, and only
///   while another thread or process updates the record (never during a sweep): short for
///   cache-sized values on a local disk. A sweep lists the directory and may take longer with very
///   many entries; it runs inside the ``store(_:forKey:)`` call that pushes the store past its
///   limit, and inside the first write of each store instance, which counts the files already
///   there. From an `async` context with large values or a slow disk, call the store from a
///   dedicated thread rather than from the cooperative pool.
public final class DiskByteStore: Sendable {
    /// The directory that holds the entry files.
    public let directory: String
    /// The size limit and the sweep target.
    public let configuration: Configuration

    /// The entry files' total size as every store on the directory has updated it. Kept on disk
    /// rather than in memory because a count in one process misses the others' writes, and the
    /// limit is the directory's.
    private let sizeRecord: SharedSizeRecord
    /// Whether this instance has counted the directory yet. The first write counts it even when
    /// the record holds a figure, so that drift (a writer killed between its rename and its record
    /// update, files removed by hand) lasts no longer than until another store opens the directory.
    private let hasCounted = Atomic<Bool>(false)
    private let temporaryCounter = Atomic<UInt64>(0)

    static let entrySuffix = ".cache"
    static let temporaryPrefix = ".tmp-"
    static let lockFileName = ".lock"
    static let sizeFileName = ".size"

    /// Opens (and creates, with mode 0700) the store in `directory`.
    ///
    /// ```swift
    /// let store = try DiskByteStore(directory: "/var/cache/example", configuration: .init(sizeLimit: 64 << 20))
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The directory for the entry files; the store owns everything in it that ends
    ///     in `.cache` or starts with `.tmp-`, and its `.lock` and `.size` files.
    ///   - configuration: The size limit and sweep target.
    /// - Throws: ``DiskCacheError/Code/directoryUnavailable`` when the directory cannot be created.
    public init(directory: String, configuration: Configuration = Configuration()) throws(DiskCacheError) {
        if let failure = POSIXFile.makeDirectories(directory) {
            throw DiskCacheError(.directoryUnavailable, path: directory, reason: POSIXFile.errnoText(failure))
        }
        self.directory = directory
        self.configuration = configuration
        self.sizeRecord = SharedSizeRecord(path: directory + "/" + Self.sizeFileName)
    }

    /// The value stored for `key`, or `nil` when there is none or its file is damaged.
    ///
    /// A hit counts as a use for the least-recently-used order. A damaged file is removed.
    ///
    /// ```swift
    /// if let bytes = store.value(forKey: "greeting") { print(bytes.count) }
    /// ```
    public func value(forKey key: String) -> Data? {
        let path = entryPath(forKey: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        // No entry of this store can outgrow its limit (a larger one is swept as soon as it is
        // written), so a larger file is damage, or another store's with a larger limit, and is
        // never read into memory.
        guard Int(info.st_size) <= configuration.sizeLimit + DiskEntryFormat.headerSize + (1 << 16),
            let file = POSIXFile.readAll(descriptor, size: Int(info.st_size))
        else {
            removeDamaged(path, inode: info.st_ino)
            return nil
        }
        switch DiskEntryFormat.contents(of: file, key: key) {
        case .value(let value):
            POSIXFile.setModificationTime(descriptor, POSIXFile.now())
            return value
        case .otherKey:
            return nil
        case .damaged:
            removeDamaged(path, inode: info.st_ino)
            return nil
        }
    }

    /// Stores `value` for `key`, replacing what was there, then sweeps if the store is over its
    /// limit.
    ///
    /// ```swift
    /// try store.store(Data(repeating: 0, count: 1024), forKey: "zeros")
    /// ```
    ///
    /// - Throws: ``DiskCacheError/Code/writeFailed`` when the file cannot be written or renamed
    ///   (the previous entry, if any, is then left as it was);
    ///   ``DiskCacheError/Code/entryTooLarge`` for a key over 64 KiB.
    public func store(_ value: Data, forKey key: String) throws(DiskCacheError) {
        let path = entryPath(forKey: key)
        guard key.utf8.count <= 1 << 16 else {
            throw DiskCacheError(.entryTooLarge, path: path, reason: "key of \(key.utf8.count) bytes")
        }
        let header = DiskEntryFormat.header(key: key, value: value)
        let fileSize = header.count + value.count
        let temporary = temporaryPath()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DiskCacheError(.writeFailed, path: temporary, reason: POSIXFile.errnoText())
        }
        let written =
            header.withUnsafeBytes { POSIXFile.writeAll(descriptor, $0) }
            && value.withUnsafeBytes { POSIXFile.writeAll(descriptor, $0) }
        let failure = errno
        if written { POSIXFile.setModificationTime(descriptor, POSIXFile.now()) }
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw DiskCacheError(.writeFailed, path: temporary, reason: POSIXFile.errnoText(failure))
        }
        var previous = stat()
        let previousSize = stat(path, &previous) == 0 ? Int(previous.st_size) : 0
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw DiskCacheError(.writeFailed, path: path, reason: POSIXFile.errnoText(failure))
        }
        let total = sizeRecord.update { $0.map { $0 - previousSize + fileSize } }
        if !hasCounted.load(ordering: .acquiring) || total.map({ $0 > configuration.sizeLimit }) ?? true {
            sweep()
        }
    }

    /// Removes the entry for `key`.
    ///
    /// ```swift
    /// store.removeValue(forKey: "greeting")
    /// ```
    ///
    /// - Returns: Whether there was an entry file to remove.
    @discardableResult
    public func removeValue(forKey key: String) -> Bool {
        let path = entryPath(forKey: key)
        var info = stat()
        guard stat(path, &info) == 0, unlink(path) == 0 else { return false }
        sizeRecord.update { $0.map { max(0, $0 - Int(info.st_size)) } }
        return true
    }

    /// Removes every entry.
    ///
    /// ```swift
    /// store.removeAll()
    /// ```
    public func removeAll() {
        for name in POSIXFile.names(in: directory) where name.hasSuffix(Self.entrySuffix) {
            unlink(directory + "/" + name)
        }
        // Unknown rather than zero: other processes may have written while the files went.
        sizeRecord.update { _ in nil }
    }

    /// The bytes the entry files take now, counted from the directory.
    ///
    /// ```swift
    /// print(store.currentSize())  // 1048
    /// ```
    public func currentSize() -> Int {
        listEntries().reduce(0) { $0 + $1.size }
    }

    /// Trims the store to ``Configuration/sizeAfterSweep`` if it is over ``Configuration/sizeLimit``,
    /// least recently used entries first, and removes abandoned temporary files.
    ///
    /// ``store(_:forKey:)`` calls it when a write takes the store past its limit; call it yourself
    /// after changing the limit or to tidy a store that other processes fill.
    ///
    /// ```swift
    /// store.sweep()
    /// ```
    ///
    /// - Returns: `false` when another thread or process is sweeping the same directory: that sweep
    ///   does the work, and this call returns at once instead of waiting.
    @discardableResult
    public func sweep() -> Bool {
        let lockPath = directory + "/" + Self.lockFileName
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return false }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return false }
        let recordedBefore = sizeRecord.current()
        removeAbandonedTemporaryFiles()
        var entries = listEntries()
        var total = entries.reduce(0) { $0 + $1.size }
        if total > configuration.sizeLimit {
            entries.sort { ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name) }
            for entry in entries where total > configuration.sizeAfterSweep {
                if unlink(directory + "/" + entry.name) == 0 { total -= entry.size }
            }
        }
        // Writers that finished while this sweep listed the directory added to the record; keep
        // what they added on top of the count. A write the listing also saw is then counted twice,
        // which only brings the next sweep, and that sweep's count, forward.
        sizeRecord.update { recorded in
            guard let recorded else { return recordedBefore == nil ? total : nil }
            return total + recorded - (recordedBefore ?? recorded)
        }
        hasCounted.store(true, ordering: .releasing)
        return true
    }

    /// The file that holds `key`'s entry: the key's hash in hex, so that any key makes a valid name.
    func entryPath(forKey key: String) -> String {
        var hash = FNV1a()
        hash.combine(key)
        let hex = String(hash.value, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + Self.entrySuffix
    }

    private func temporaryPath() -> String {
        let serial = temporaryCounter.wrappingAdd(1, ordering: .relaxed).newValue
        let random = UInt64.random(in: 0...UInt64.max)
        return directory + "/" + Self.temporaryPrefix + "\(getpid())-\(serial)-\(String(random, radix: 16))"
    }

    /// Removes a damaged file unless another writer has renamed a new entry into its place since it
    /// was opened.
    private func removeDamaged(_ path: String, inode: ino_t) {
        var info = stat()
        if stat(path, &info) == 0, info.st_ino == inode, unlink(path) == 0 {
            sizeRecord.update { $0.map { max(0, $0 - Int(info.st_size)) } }
        }
    }

    private struct Entry {
        let name: String
        let size: Int
        let used: timespec
    }

    private func listEntries() -> [Entry] {
        POSIXFile.names(in: directory).compactMap { name -> Entry? in
            guard name.hasSuffix(Self.entrySuffix) else { return nil }
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else { return nil }
            return Entry(name: name, size: Int(info.st_size), used: info.st_mtim)
        }
    }

    private func removeAbandonedTemporaryFiles() {
        let age = configuration.abandonedFileAge.components
        let cutoff = POSIXFile.now().tv_sec - Int(age.seconds)
        for name in POSIXFile.names(in: directory) where name.hasPrefix(Self.temporaryPrefix) {
            var info = stat()
            let path = directory + "/" + name
            if stat(path, &info) == 0, info.st_mtim.tv_sec < cutoff { unlink(path) }
        }
    }
}
