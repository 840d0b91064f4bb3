extension DiskByteStore {
    /// How large a store may grow and how far a sweep trims it.
    ///
    /// ```swift
    /// var configuration = DiskByteStore.Configuration()
    /// configuration.sizeLimit = 50 << 20
    /// configuration.sizeAfterSweep = 35 << 20
    /// let store = try DiskByteStore(directory: "/var/cache/thumbnails", configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The most bytes the entry files may take before a sweep runs; 150 MiB by default, as
        /// Nuke's `DataCache`. Counted as file lengths (headers included), not disk blocks.
        public var sizeLimit: Int
        /// What a sweep trims the store down to, least recently used entries first; 70 % of
        /// ``sizeLimit`` by default, so that a full store does not sweep on every write.
        public var sizeAfterSweep: Int
        /// How old an abandoned temporary file (a writer that died before its rename) must be
        /// before a sweep removes it; 10 minutes by default, far longer than any write takes.
        public var abandonedFileAge: Duration

        /// The defaults: 150 MiB, swept to 105 MiB, abandoned files removed after 10 minutes.
        ///
        /// ```swift
        /// let configuration = DiskByteStore.Configuration(sizeLimit: 10 << 20)
        /// ```
        ///
        /// - Parameters:
        ///   - sizeLimit: The most bytes before a sweep runs.
        ///   - sizeAfterSweep: What a sweep trims to; 70 % of `sizeLimit` when `nil`.
        ///   - abandonedFileAge: When an abandoned temporary file may be removed.
        public init(sizeLimit: Int = 150 << 20, sizeAfterSweep: Int? = nil, abandonedFileAge: Duration = .seconds(600))
        {
            self.sizeLimit = sizeLimit
            self.sizeAfterSweep = sizeAfterSweep ?? sizeLimit / 10 * 7
            self.abandonedFileAge = abandonedFileAge
        }
    }
}
