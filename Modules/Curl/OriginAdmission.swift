internal import CourierHTTP
internal import FoundationEssentials

/// Holds back transfers to one origin beyond the HTTP/2 stream limit (loop thread only).
///
/// libcurl 7.88 opens a new connection for every transfer that finds the existing HTTP/2
/// connections at their stream limit, up to `CURLMOPT_MAX_HOST_CONNECTIONS` (curl/curl#10456, fixed
/// in 8.x). Measured here: 200 concurrent GETs to nginx over h2 used 32 connections with a host cap
/// of 32. Admitting at most `limit` transfers per origin (the stream limit of one connection, or the
/// per-host connection cap when that is larger, so HTTP/1.1 is never held back) keeps
/// HTTP/2 on one connection, and never slows HTTP/1.1, which can run at most
/// `maxConnectionsPerHost` (fewer) transfers at once anyway: libcurl would queue the rest itself.
/// A held-back transfer's timeouts start when it is admitted.
struct OriginAdmission {
    private let limit: Int
    private var running: [Substring: Int] = [:]
    private var waiting: [Substring: [PendingTransfer]] = [:]
    private var suspendedWhileWaiting: Set<Int> = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The admission key of `url`: `scheme://host` with `:port` when the URL names one, scheme and
    /// host lowercased (RFC 3986 §6.2.2.1). URLs of one origin get equal keys.
    ///
    /// Most URLs are already in that form: their key is then the front of `absoluteString`, shared
    /// and not rebuilt (building it from `scheme`, `host` and `port` showed in the per-request
    /// profile). The rest (capitals, user info, percent-escapes, IPv6 literals, an odd port) are
    /// built from the parsed parts, which give the same key for the same origin.
    static func origin(_ url: URL) -> Substring {
        var text = url.absoluteString
        let end = text.withUTF8 { plainOriginLength(UnsafeRawBufferPointer($0)) }
        if let end { return text[..<text.utf8.index(text.startIndex, offsetBy: end)] }
        let port = url.port.map { ":\($0)" } ?? ""
        return Substring("\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")\(port)")
    }

    /// Whether an admission key names an `https` origin, and whether it names an `http` or `https`
    /// one at all (the only schemes a transfer may use); the key's scheme is lowercase.
    static func webScheme(ofOrigin origin: Substring) -> (isWeb: Bool, isSecure: Bool) {
        // On the bytes: the generic `starts(with:)` on a UTF-8 view showed in the per-request profile.
        let scheme = origin.utf8.withContiguousStorageIfAvailable { bytes in
            let isSecure = hasPrefix(bytes, "https://")
            return (isWeb: isSecure || hasPrefix(bytes, "http://"), isSecure: isSecure)
        }
        return scheme ?? (origin.hasPrefix("https://") || origin.hasPrefix("http://"), origin.hasPrefix("https://"))
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        for index in 0..<count where bytes[index] != start[index] { return false }
        return true
    }

    /// The length of the `scheme://host[:port]` front of `text` when it is already an admission
    /// key: lowercase scheme and host of letters, digits, `.` and `-`, and a port without a leading
    /// zero; `nil` for anything else.
    private static func plainOriginLength(_ text: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < text.count, isSchemeByte(text[index]) { index += 1 }
        guard index > 0, index + 3 <= text.count, text[index] == UInt8(ascii: ":"),
            text[index + 1] == UInt8(ascii: "/"), text[index + 2] == UInt8(ascii: "/")
        else { return nil }
        index += 3
        while index < text.count, isHostByte(text[index]) { index += 1 }
        if index < text.count, text[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            while index < text.count, text[index] >= 0x30 && text[index] <= 0x39 { index += 1 }
            // A leading zero (`:080`) names the port `80` too: the parsed parts decide.
            guard index > portStart, index - portStart <= 5, text[portStart] != 0x30 else { return nil }
        }
        guard index < text.count else { return index }
        let byte = text[index]
        return byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") ? index : nil
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// Counts `pending` as running and returns `true`, or queues it and returns `false`.
    mutating func admit(_ pending: PendingTransfer) -> Bool {
        // One lookup (hashing the key) for the common case, not a read and then a write.
        let limit = limit
        let admitted = Self.takeRoom(&running[pending.origin, default: 0], below: limit)
        if !admitted { waiting[pending.origin, default: []].append(pending) }
        return admitted
    }

    private static func takeRoom(_ count: inout Int, below limit: Int) -> Bool {
        guard count < limit else { return false }
        count += 1
        return true
    }

    /// A transfer to `origin` (its ``PendingTransfer/origin``) ended; returns the next one to start,
    /// already counted as running.
    mutating func release(origin: Substring) -> PendingTransfer? {
        if !waiting.isEmpty, var queue = waiting[origin], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[origin] = queue.isEmpty ? nil : queue
            return next
        }
        // One lookup: the count is changed or removed where it was found.
        guard let index = running.index(forKey: origin) else { return nil }
        if running.values[index] > 1 {
            running.values[index] -= 1
        } else {
            running.remove(at: index)
        }
        return nil
    }

    mutating func removeWaiting(_ id: Int) -> PendingTransfer? {
        for (origin, queue) in waiting {
            guard let index = queue.firstIndex(where: { $0.id == id }) else { continue }
            var remaining = queue
            let removed = remaining.remove(at: index)
            waiting[origin] = remaining.isEmpty ? nil : remaining
            suspendedWhileWaiting.remove(id)
            return removed
        }
        return nil
    }

    /// Whether any transfer is held back.
    var hasWaiting: Bool { !waiting.isEmpty }

    mutating func removeAllWaiting() -> [PendingTransfer] {
        defer { waiting.removeAll() }
        return waiting.values.flatMap { $0 }
    }

    /// Remembers a suspend or resume of a transfer that has not started yet.
    mutating func setSuspended(_ id: Int, _ suspended: Bool) {
        guard waiting.values.contains(where: { $0.contains { $0.id == id } }) else { return }
        if suspended { suspendedWhileWaiting.insert(id) } else { suspendedWhileWaiting.remove(id) }
    }

    mutating func startsSuspended(_ id: Int) -> Bool {
        !suspendedWhileWaiting.isEmpty && suspendedWhileWaiting.remove(id) != nil
    }
}
