import CourierImageDecoding
import Foundation

/// `images`, second half: decode throughput in MiB of RGBA pixels per second, `ImageDecoder` in
/// this process against a plain C program on the same library (`COURIER_DECODE_REFERENCE`, built
/// from reference/decode_reference.c by `ci/bench`), which also writes the inputs: one 2048 × 1536
/// synthetic photo as PNG, JPEG (quality 85) and WebP (quality 85).
///
/// Each format gets `benchRuns` interleaved runs of the same number of decodes on both sides; the
/// median run is reported, and `ratio` / `cpu_ratio` are medians of the per-run ratios, as in the
/// cache half.
enum DecodeBench {
    static let formats: [(name: String, file: String, iterations: Int)] = [
        ("png", "bench.png", 6), ("jpeg", "bench.jpg", 24), ("webp", "bench.webp", 6),
    ]

    static func run() throws {
        guard let reference = ProcessInfo.processInfo.environment["COURIER_DECODE_REFERENCE"] else {
            log(
                "images: COURIER_DECODE_REFERENCE must name the compiled reference/decode_reference.c (ci/bench builds it)"
            )
            exit(2)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-decode-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try runReference(reference, ["make-inputs", directory.path])

        let decoder = ImageDecoder()
        for format in formats {
            let path = directory.appendingPathComponent(format.file).path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            var courierRates: [Double] = []
            var referenceRates: [Double] = []
            var courierCPU: [Double] = []
            var referenceCPU: [Double] = []
            for run in 1...benchRuns {
                var pixelBytes = 0
                let (seconds, cpu) = try measure {
                    for _ in 0..<format.iterations { pixelBytes += try decoder.decode(data).pixels.count }
                }
                courierRates.append(Double(pixelBytes) / seconds / 1_048_576)
                courierCPU.append(cpu / Double(format.iterations))
                let figures = try runReference(reference, ["decode", path, "\(format.iterations)"])
                guard let referenceSeconds = figures["seconds"], let referenceCPUTotal = figures["cpu_us"],
                    let referenceBytes = figures["pixel_bytes"], Int(referenceBytes) == pixelBytes
                else {
                    log("decode-\(format.name): unexpected reference output \(figures)")
                    exit(1)
                }
                referenceRates.append(referenceBytes / referenceSeconds / 1_048_576)
                referenceCPU.append(referenceCPUTotal / Double(format.iterations))
                log(
                    "decode-\(format.name) run \(run): courier \(String(format: "%.1f", courierRates.last ?? 0)) MiB/s, "
                        + "c \(String(format: "%.1f", referenceRates.last ?? 0)) MiB/s of pixels"
                )
            }
            let ratios = zip(courierRates, referenceRates).map { $0 / $1 }
            let cpuRatios = zip(courierCPU, referenceCPU).map { $0 / $1 }
            emit(
                BenchLine(
                    workload: "decode-\(format.name)",
                    variant: "courier",
                    metrics: [
                        ("pixels_mib_per_s", median(courierRates)), ("cpu_ms_per_decode", median(courierCPU) / 1000),
                        ("ratio", median(ratios)), ("cpu_ratio", median(cpuRatios)),
                    ]
                )
            )
            emit(
                BenchLine(
                    workload: "decode-\(format.name)",
                    variant: "c",
                    metrics: [
                        ("pixels_mib_per_s", median(referenceRates)),
                        ("cpu_ms_per_decode", median(referenceCPU) / 1000), ("ratio", 1), ("cpu_ratio", 1),
                    ]
                )
            )
        }
    }

    /// Runs the reference and parses its `key=value` line.
    static func runReference(_ executable: String, _ arguments: [String]) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            log("decode reference \(arguments) exited with \(process.terminationStatus)")
            exit(1)
        }
        var figures: [String: Double] = [:]
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        return figures
    }
}
