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
    private var running: [String: Int] = [:]
    private var waiting: [String: [PendingTransfer]] = [:]
    private var suspendedWhileWaiting: Set<Int> = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    static func origin(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? -1)"
    }

    /// Counts `pending` as running and returns `true`, or queues it and returns `false`.
    mutating func admit(_ pending: PendingTransfer) -> Bool {
        let origin = pending.origin
        let count = running[origin, default: 0]
        guard count < limit else {
            waiting[origin, default: []].append(pending)
            return false
        }
        running[origin] = count + 1
        return true
    }

    /// A transfer to `origin` (its ``PendingTransfer/origin``) ended; returns the next one to start,
    /// already counted as running.
    mutating func release(origin: String) -> PendingTransfer? {
        if var queue = waiting[origin], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[origin] = queue.isEmpty ? nil : queue
            return next
        }
        let count = running[origin, default: 1] - 1
        running[origin] = count > 0 ? count : nil
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
        suspendedWhileWaiting.remove(id) != nil
    }
}
