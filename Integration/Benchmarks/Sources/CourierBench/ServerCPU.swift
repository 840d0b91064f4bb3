import Foundation

/// The CPU time of the test server's worker processes, read around each client run.
///
/// The kernel here counts CPU time by tick, with no separate account for interrupt work: loopback
/// TCP processing (including the sends a BBR pacing timer releases) is charged to whichever task
/// happens to be running on the CPU where it runs. A client thread that the scheduler places on the
/// server's CPU is charged part of the server's sending and the server less: in twenty 100 MiB
/// downloads, the same client measured 480 or 785 ms of CPU depending on where its loop thread ran,
/// while client plus server stayed within 1,001–1,077 ms. So each run also reports the server's
/// share, and the ratio of client plus server, which placement does not move.
///
/// `ci/bench` names the workers it pins in `COURIER_BENCH_SERVER_PIDS` (space-separated); without
/// it, or when one cannot be read, no server figure is reported.
enum ServerCPU {
    static let pids: [Int32] = (ProcessInfo.processInfo.environment["COURIER_BENCH_SERVER_PIDS"] ?? "")
        .split(separator: " ")
        .compactMap { Int32($0) }

    /// The workers' run time so far, in microseconds: the first field of `/proc/PID/schedstat`
    /// (nanoseconds on the CPU), summed; `nil` when there are none or one cannot be read.
    static func microseconds() -> Double? {
        guard !pids.isEmpty else { return nil }
        var total = 0.0
        for pid in pids {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8),
                let field = text.split(separator: " ").first,
                let nanoseconds = Double(field)
            else { return nil }
            total += nanoseconds / 1000
        }
        return total
    }
}
