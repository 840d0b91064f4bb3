import Foundation

/// The figure line every transport client prints (`reference/curl_reference.c`, the `courier`
/// child, `URLSessionClient`):
/// `requests=N ok=N seconds=S cpu_us=U rss_kib=R bytes_down=D bytes_up=B connects=K`.
struct TransportFigures {
    var requests = 0
    var ok = 0
    var seconds = 0.0
    var cpuMicroseconds = 0.0
    var rssKiB = 0.0
    var bytesDown = 0.0
    var bytesUp = 0.0
    /// New TCP connections the client opened; `nil` when the client cannot tell (URLSession).
    var connects: Double?
    /// CPU time of the server's workers during the run (``ServerCPU``); `nil` when not known.
    var serverCPUMicroseconds: Double?

    /// Parses the last figure line in `output`, or returns `nil` when there is none.
    init?(output: String) {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("requests=") }) else { return nil }
        var values: [String: Double] = [:]
        for field in line.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        guard let requests = values["requests"], let ok = values["ok"], let seconds = values["seconds"],
            let cpu = values["cpu_us"], let rss = values["rss_kib"], seconds > 0
        else { return nil }
        self.requests = Int(requests)
        self.ok = Int(ok)
        self.seconds = seconds
        cpuMicroseconds = cpu
        rssKiB = rss
        bytesDown = values["bytes_down"] ?? 0
        bytesUp = values["bytes_up"] ?? 0
        if let connects = values["connects"], connects >= 0 { self.connects = connects }
    }

    var requestsPerSecond: Double { Double(requests) / seconds }
    var mebibytesPerSecond: Double { (bytesDown + bytesUp) / 1_048_576 / seconds }
    var cpuMicrosecondsPerRequest: Double { cpuMicroseconds / Double(max(requests, 1)) }
    var serverCPUMicrosecondsPerRequest: Double? { serverCPUMicroseconds.map { $0 / Double(max(requests, 1)) } }
    /// The client's and the server's CPU per request together, when the server's is known.
    var systemCPUMicrosecondsPerRequest: Double? {
        serverCPUMicrosecondsPerRequest.map { cpuMicrosecondsPerRequest + $0 }
    }
    var rssMiB: Double { rssKiB / 1024 }

    /// One line for stderr.
    var summary: String {
        let connections = connects.map { String(Int($0)) } ?? "?"
        let server = serverCPUMicrosecondsPerRequest.map { String(format: ", server %.1f us CPU/req", $0) } ?? ""
        return String(
            format: "%.0f req/s, %.1f MiB/s, %.0f us CPU/req, rss %.1f MiB, connects %@, ok %d/%d, %.2f s",
            requestsPerSecond,
            mebibytesPerSecond,
            cpuMicrosecondsPerRequest,
            rssMiB,
            connections,
            ok,
            requests,
            seconds
        ) + server
    }
}
