public import FoundationEssentials

/// Where per-user cache files go on Linux: `$XDG_CACHE_HOME`, or `~/.cache` when it is unset.
///
/// The XDG Base Directory Specification says to ignore a relative `XDG_CACHE_HOME`, and so does
/// this type.
///
/// ```swift
/// let directory = try CacheDirectory.userCacheDirectory(named: "com.example.images")
/// // "/home/ada/.cache/com.example.images"
/// ```
public enum CacheDirectory {
    /// The user's cache directory from `environment`, or `nil` when neither an absolute
    /// `XDG_CACHE_HOME` nor an absolute `HOME` is set.
    ///
    /// ```swift
    /// CacheDirectory.userCacheDirectory(environment: ["HOME": "/home/ada"])  // "/home/ada/.cache"
    /// ```
    ///
    /// - Parameter environment: The variables to read; the process's own by default.
    public static func userCacheDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return trimmingTrailingSlashes(xdg)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return joined(trimmingTrailingSlashes(home), ".cache")
        }
        return nil
    }

    /// A folder named `name` in the user's cache directory.
    ///
    /// ```swift
    /// let store = try DiskByteStore(directory: CacheDirectory.userCacheDirectory(named: "com.example.http"))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The folder's name: one path component, such as a reverse-DNS identifier.
    ///   - environment: The variables to read; the process's own by default.
    /// - Throws: ``DiskCacheError/Code/directoryUnavailable`` when no cache directory is set, or
    ///   `name` is empty, `.`, `..` or contains a `/`.
    public static func userCacheDirectory(
        named name: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DiskCacheError) -> String {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw DiskCacheError(.directoryUnavailable, path: name, reason: "not a single path component")
        }
        guard let base = userCacheDirectory(environment: environment) else {
            throw DiskCacheError(.directoryUnavailable, path: name, reason: "neither XDG_CACHE_HOME nor HOME is set")
        }
        return joined(base, name)
    }

    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
