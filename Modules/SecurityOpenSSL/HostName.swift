/// The host form OpenSSL's checks expect.
enum HostName {
    /// Nil for no host or an empty one; `[::1]`, as in a URL, becomes `::1`.
    static func normalized(_ host: String?) -> String? {
        guard let host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 {
            return String(host.dropFirst().dropLast())
        }
        return host
    }
}
