import CourierHTTP
import CourierSerialization
import Foundation

/// `multipart`: a 1 GiB file part streamed through the multipart body reader into a sink that
/// discards, against a plain `read()` loop over the same file.
///
/// Each run is a fresh child process (`CourierBench child-multipart <path> <mode>`) so that its peak
/// resident set size belongs to that run alone; the two variants alternate which goes first. The
/// file is written once with pseudo-random content where the disk has room (the temporary directory,
/// else `/dev/shm`), or made sparse when only a sparse file fits; it is deleted afterwards.
enum MultipartGroup {
    static let fileSize: Int64 = 1 << 30
    static let requiredSpace: Int64 = 1536 << 20
    static let bufferSize = 256 * 1024

    static func run() throws {
        guard let (path, kind) = try makeFile() else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        log("multipart: \(kind) file of \(fileSize >> 20) MiB at \(path), \(bufferSize >> 10) KiB reads")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var figures: [String: [(throughput: Double, rss: Double)]] = ["courier": [], "reference": []]
        for run in 0..<benchRuns {
            let order = run % 2 == 0 ? ["courier", "reference"] : ["reference", "courier"]
            for mode in order {
                let figure = try runChild(executable: executable, path: path, mode: mode)
                log("multipart run \(run + 1) \(mode): \(figure.throughput) MiB/s, rss \(figure.rss) MiB")
                figures[mode, default: []].append(figure)
            }
        }
        let courier = median(figures["courier", default: []].map(\.throughput))
        let reference = median(figures["reference", default: []].map(\.throughput))
        let courierRSS = median(figures["courier", default: []].map(\.rss))
        let referenceRSS = median(figures["reference", default: []].map(\.rss))
        if courierRSS >= 32 { log("multipart: courier peak RSS \(courierRSS) MiB is above the 32 MiB target") }
        emit(
            BenchLine(
                workload: "multipart",
                variant: "courier",
                metrics: [
                    ("mib_per_s", courier), ("rss_mib", courierRSS), ("ratio", reference > 0 ? courier / reference : 0),
                ]
            )
        )
        emit(
            BenchLine(
                workload: "multipart",
                variant: "reference",
                metrics: [("mib_per_s", reference), ("rss_mib", referenceRSS), ("ratio", 1)]
            )
        )
    }

    /// `child-multipart <path> <courier|reference>`: reads the file once and prints
    /// `bytes=N seconds=S mib_per_s=X rss_mib=Y` on stdout.
    static func child(_ arguments: [String]) throws {
        guard arguments.count == 2 else {
            log("usage: CourierBench child-multipart <path> <courier|reference>")
            exit(2)
        }
        let path = arguments[0]
        var bytes: Int64 = 0
        let timing: (seconds: Double, cpuMicroseconds: Double)
        switch arguments[1] {
        case "courier":
            var form = MultipartFormData()
            try form.appendFile(atPath: path, name: "file", fileName: "big.bin", mimeType: "application/octet-stream")
            let expected = form.contentLength
            guard let reader = try form.makeBody().makeReader() else {
                log("multipart: the body has no synchronous reader")
                exit(1)
            }
            var buffer = [UInt8](repeating: 0, count: bufferSize)
            timing = try measure {
                while true {
                    let outcome = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                    guard case .bytes(let count) = outcome else { break }
                    bytes += Int64(count)
                }
            }
            guard bytes == expected else {
                log("multipart: read \(bytes) bytes, expected \(expected)")
                exit(1)
            }
        case "reference":
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                log("multipart: cannot open \(path)")
                exit(1)
            }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: bufferSize)
            timing = measure {
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    bytes += Int64(count)
                }
            }
            guard bytes == fileSize else {
                log("multipart: read \(bytes) bytes, expected \(fileSize)")
                exit(1)
            }
        default:
            log("multipart: unknown mode \(arguments[1])")
            exit(2)
        }
        let throughput = Double(bytes) / 1_048_576 / max(timing.seconds, 1e-9)
        print("bytes=\(bytes) seconds=\(timing.seconds) mib_per_s=\(throughput) rss_mib=\(peakRSSMiB())")
    }

    private static func runChild(
        executable: String,
        path: String,
        mode: String
    ) throws -> (throughput: Double, rss: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["child-multipart", path, mode]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var values: [String: Double] = [:]
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let pair = field.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Double(pair[1]) { values[String(pair[0])] = value }
        }
        guard process.terminationStatus == 0, let throughput = values["mib_per_s"], let rss = values["rss_mib"] else {
            throw BenchFailure(message: "child-multipart \(mode) failed (status \(process.terminationStatus)): \(text)")
        }
        return (throughput, rss)
    }

    /// Picks a directory with room and writes the file: real content when it fits, sparse otherwise.
    private static func makeFile() throws -> (path: String, kind: String)? {
        let candidates = [NSTemporaryDirectory(), "/dev/shm"]
        guard let directory = candidates.first(where: { freeSpace($0) >= requiredSpace }) else {
            log("multipart: skipped, neither \(candidates.joined(separator: " nor ")) has 1.5 GiB free")
            return nil
        }
        let path = (directory as NSString).appendingPathComponent("courier-bench-multipart-\(getpid()).bin")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchFailure(message: "cannot create \(path)") }
        defer { close(descriptor) }
        if freeSpace(directory) >= requiredSpace {
            // xorshift content: not compressible, not all zeros, cheap to make.
            var state: UInt64 = 0x2545_F491_4F6C_DD1D
            var chunk = [UInt64](repeating: 0, count: (1 << 20) / 8)
            for _ in 0..<(fileSize >> 20) {
                for index in chunk.indices {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    chunk[index] = state
                }
                let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard written == 1 << 20 else { throw BenchFailure(message: "cannot write \(path)") }
            }
            return (path, "real")
        }
        guard ftruncate(descriptor, off_t(fileSize)) == 0 else { throw BenchFailure(message: "cannot size \(path)") }
        return (path, "sparse")
    }

    private static func freeSpace(_ directory: String) -> Int64 {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
