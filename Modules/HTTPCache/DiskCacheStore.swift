public import CourierDiagnostics
public import CourierDiskCache
internal import Dispatch
internal import FoundationEssentials

/// An ``HTTPCacheStore`` on disk, on `CourierDiskCache`'s `DiskByteStore`: size-capped with the
/// least recently used entries swept first, safe to share between processes, and proof against
/// truncated files (a damaged entry is a miss and is removed).
///
/// The file work runs on a queue of the store's own, never on the caller's thread, so awaiting it
/// does not block the cooperative pool. A write that fails (a full disk) leaves the entry out and
/// is reported to ``diagnostics``; the response still reaches the caller.
///
/// ```swift
/// let store = try DiskCacheStore(named: "com.example.http")  // ~/.cache/com.example.http
/// let cache = HTTPCache(store: store)
/// ```
public final class DiskCacheStore: HTTPCacheStore {
    /// The byte store underneath.
    public let bytes: DiskByteStore
    /// Where failed writes are reported.
    public let diagnostics: Diagnostics
    private let queue = DispatchQueue(label: "courier.http-cache.disk")

    /// A store in `directory`.
    ///
    /// ```swift
    /// let store = DiskCacheStore(bytes: try DiskByteStore(directory: "/var/cache/example/http"))
    /// ```
    /// - Parameters:
    ///   - bytes: The byte store that keeps the files.
    ///   - diagnostics: Where failed writes are reported; off by default.
    public init(bytes: DiskByteStore, diagnostics: Diagnostics = .disabled) {
        self.bytes = bytes
        self.diagnostics = diagnostics
    }

    /// A store in the folder `name` of the user's cache directory (`$XDG_CACHE_HOME`, else
    /// `~/.cache`).
    ///
    /// ```swift
    /// let store = try DiskCacheStore(named: "com.example.http", configuration: .init(sizeLimit: 50 << 20))
    /// ```
    /// - Parameters:
    ///   - name: The folder's name, one path component.
    ///   - configuration: The size limit and sweep target; 150 MiB by default.
    ///   - diagnostics: Where failed writes are reported; off by default.
    /// - Throws: `DiskCacheError` when there is no cache directory or it cannot be created.
    public convenience init(
        named name: String,
        configuration: DiskByteStore.Configuration = DiskByteStore.Configuration(),
        diagnostics: Diagnostics = .disabled
    ) throws(DiskCacheError) {
        let directory = try CacheDirectory.userCacheDirectory(named: name)
        self.init(
            bytes: try DiskByteStore(directory: directory, configuration: configuration),
            diagnostics: diagnostics
        )
    }

    /// The entry stored for `key`, or `nil` when there is none or its file is damaged.
    ///
    /// ```swift
    /// let entry = await store.entry(forKey: "GET https://example.com/")
    /// ```
    public func entry(forKey key: String) async -> HTTPCacheEntry? {
        let data = await onQueue { [bytes] in bytes.value(forKey: key) }
        guard let data else { return nil }
        guard let entry = HTTPCacheEntryCoding.decode(data) else {
            diagnostics.log(.warning, "an HTTP cache entry could not be read and was removed", metadata: ["key": key])
            await removeEntry(forKey: key)
            return nil
        }
        return entry
    }

    /// Writes `entry` for `key`; a failed write is reported to ``diagnostics`` and leaves no entry.
    ///
    /// ```swift
    /// await store.store(entry, forKey: "GET https://example.com/")
    /// ```
    public func store(_ entry: HTTPCacheEntry, forKey key: String) async {
        let encoded = HTTPCacheEntryCoding.encode(entry)
        let failure = await onQueue { [bytes] () -> DiskCacheError? in
            do throws(DiskCacheError) {
                try bytes.store(encoded, forKey: key)
                return nil
            } catch {
                bytes.removeValue(forKey: key)
                return error
            }
        }
        if let failure {
            diagnostics.log(.warning, "an HTTP cache entry was not written: \(failure)", metadata: ["key": key])
        }
    }

    /// Removes the entry for `key`.
    ///
    /// ```swift
    /// await store.removeEntry(forKey: "GET https://example.com/")
    /// ```
    public func removeEntry(forKey key: String) async {
        await onQueue { [bytes] in _ = bytes.removeValue(forKey: key) }
    }

    /// Removes every entry.
    ///
    /// ```swift
    /// await store.removeAll()
    /// ```
    public func removeAll() async {
        await onQueue { [bytes] in bytes.removeAll() }
    }

    private func onQueue<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
