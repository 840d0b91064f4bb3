import Foundation

/// One result line: `bench <workload> <variant> key=value ...` on stdout.
struct BenchLine {
    let workload: String
    let variant: String
    var metrics: [(String, Double)]

    var text: String {
        let values = metrics.map { name, value in "\(name)=\(format(value))" }
        return (["bench", workload, variant] + values).joined(separator: " ")
    }

    private func format(_ value: Double) -> String {
        if value >= 100 || value == value.rounded() { return String(Int64(value.rounded())) }
        let text = value >= 10 ? String(format: "%.1f", value) : String(format: "%.3f", value)
        // 0.920 reads as 0.92: trailing zeros carry no precision.
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed.removeLast() }
        if trimmed.last == "." { trimmed.removeLast() }
        return String(trimmed)
    }
}

/// Diagnostics and per-run figures go to stderr so that stdout carries only result lines.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func emit(_ line: BenchLine) {
    print(line.text)
    fflush(nil)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Wall-clock seconds and CPU microseconds (user + system) spent by `body`.
func measure(_ body: () throws -> Void) rethrows -> (seconds: Double, cpuMicroseconds: Double) {
    let cpuBefore = processCPUMicroseconds()
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (seconds, processCPUMicroseconds() - cpuBefore)
}

func processCPUMicroseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
    let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    return user + system
}

/// Peak resident set size of this process, in MiB (`VmHWM`).
func peakRSSMiB() -> Double { processStatusMiB("VmHWM") }

/// A kB field of `/proc/self/status` (`VmHWM`, `VmRSS`), in MiB; 0 when it cannot be read.
func processStatusMiB(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.split(separator: " ").compactMap { Double($0) }
        if let kib = digits.first { return kib / 1024 }
    }
    return 0
}

/// How many interleaved runs each group makes; `COURIER_BENCH_RUNS` overrides (at least 3).
let benchRuns = max(3, Int(ProcessInfo.processInfo.environment["COURIER_BENCH_RUNS"] ?? "") ?? 3)
