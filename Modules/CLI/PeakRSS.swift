internal import FoundationEssentials

/// The process's peak resident set size, for `--report-rss`: the integration tests run `courier` as
/// a process of its own, so the figure covers exactly one transfer and nothing of the test runner.
enum PeakRSS {
    /// `VmHWM` from `/proc/self/status` in MiB, or `nil` when the kernel does not say.
    static func mebibytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kibibytes = Double(fields[1]) else { return nil }
            return kibibytes / 1024
        }
        return nil
    }

    /// The line `--report-rss` prints on stderr: `peak_rss_mib=14.2`.
    static var reportLine: String {
        guard let value = mebibytes() else { return "peak_rss_mib=unknown" }
        return "peak_rss_mib=" + ByteFormatting.oneDecimal(value)
    }
}
