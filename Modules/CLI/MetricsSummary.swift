internal import CourierTransport

/// The `--metrics` summary of one transfer: phase times as libcurl measured them (offsets from the
/// start of the transfer), byte counts, protocol and whether a pooled connection carried it.
enum MetricsSummary {
    static func lines(_ metrics: TransferMetrics) -> [String] {
        func row(_ label: String, _ value: String) -> String {
            "  " + label + String(repeating: " ", count: Swift.max(1, 14 - label.count)) + value
        }
        var connection = metrics.reusedConnection ? "reused" : "new"
        if let localPort = metrics.localPort { connection += ", local port \(localPort)" }
        if let address = metrics.remoteAddress {
            connection += " -> \(address)" + (metrics.remotePort.map { ":\($0)" } ?? "")
        }
        return [
            "metrics:",
            row("protocol", metrics.protocolVersion.map { "\($0)" } ?? "-"),
            row("dns", ByteFormatting.milliseconds(metrics.nameLookup)),
            row("connect", ByteFormatting.milliseconds(metrics.connect)),
            row("tls", ByteFormatting.milliseconds(metrics.tlsHandshake)),
            row("first byte", ByteFormatting.milliseconds(metrics.firstByte)),
            row("total", ByteFormatting.milliseconds(metrics.total)),
            row(
                "sent",
                "\(metrics.requestHeaderBytes) header bytes, \(metrics.requestBodyBytes) body bytes"
            ),
            row(
                "received",
                "\(metrics.responseHeaderBytes) header bytes, \(metrics.responseBodyBytes) body bytes"
                    + " (\(metrics.decodedBodyBytes) decoded)"
            ),
            row("rate", rate(metrics)),
            row("connection", connection),
        ]
    }

    /// The rate of the direction that moved the body: an upload's response is a few bytes.
    private static func rate(_ metrics: TransferMetrics) -> String {
        if metrics.requestBodyBytes > metrics.decodedBodyBytes {
            return ByteFormatting.rate(metrics.requestBodyBytes, over: metrics.total) + " up"
        }
        return ByteFormatting.rate(metrics.decodedBodyBytes, over: metrics.total) + " down"
    }
}
