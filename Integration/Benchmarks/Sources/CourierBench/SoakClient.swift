import CourierCurl
import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation

/// The `soak` group's child process: mixed traffic through one `SessionManager` on one
/// `CurlTransport` for a fixed time, then its tallies and its memory and descriptor samples.
///
/// Each of `workers` tasks repeats: pick an operation at random, run it as a child task, cancel it
/// after a random moment for some operations, and file the outcome. What goes wrong on purpose (a
/// reset, a stream reset, a stall cut by a timeout or a cancellation) is tallied by category; a
/// failure of an operation that should have worked is `unexpected`, and makes the child exit 1.
enum SoakClient {
    /// One kind of request in the mix.
    enum Operation: String, CaseIterable, Sendable {
        case smallHTTP1 = "small-h1"
        case smallHTTP2 = "small-h2"
        case upload64KiB = "upload-64k"
        case downloadToFile = "download-3m-file"
        case downloadHTTP2 = "download-200k-h2"
        case resetMidBody = "fault-reset"
        case streamReset = "fault-rst-stream-h2"
        case stallTimeout = "fault-stall-timeout"
        case stallCancelled = "fault-stall-cancel"

        /// Relative frequency in the mix.
        var weight: Int {
            switch self {
            case .smallHTTP1, .smallHTTP2: 30
            case .upload64KiB: 10
            case .downloadToFile, .downloadHTTP2: 5
            case .resetMidBody, .streamReset, .stallTimeout, .stallCancelled: 2
            }
        }

        /// Whether the operation fails by design, so any outcome but success is expected.
        var isFault: Bool {
            switch self {
            case .resetMidBody, .streamReset, .stallTimeout, .stallCancelled: true
            default: false
            }
        }
    }

    struct Endpoints: Sendable {
        let http: String
        let https: String
        let faultHTTP: String
        let faultH2: String
        let downloadDirectory: String
    }

    struct Tally: Sendable {
        var completed = 0
        var byOperation: [String: Int] = [:]
        /// Failures by `SessionError.Kind` (transport failures by their category).
        var failures: [String: Int] = [:]
        var cancelledOnPurpose = 0
        var unexpected = 0
        var uploadedBytes: Int64 = 0
        var downloadedBytes: Int64 = 0
    }

    /// Resident memory (`VmRSS`) in MiB and open descriptors of this process, now.
    static func sample() -> (rssMiB: Double, descriptors: Int) {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        return (processStatusMiB("VmRSS"), descriptors)
    }

    /// What each open descriptor refers to, for a report when they do not return to their count.
    static func openDescriptors() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.sorted().map { name in
            "\(name) -> \((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) ?? "?")"
        }
    }

    static func run(_ arguments: [String]) async {
        let environment = ProcessInfo.processInfo.environment
        guard let seconds = arguments.first.flatMap(Int.init), let http = environment["TEST_HTTP_URL"],
            let https = environment["TEST_HTTPS_URL"], let faultHTTP = environment["FAULT_HTTP_URL"],
            let faultH2 = environment["FAULT_H2_URL"], let caFile = environment["TEST_CA_FILE"]
        else {
            log("usage: CourierBench child-soak SECONDS (with the ci/servers environment)")
            exit(2)
        }
        let workers = Int(environment["COURIER_SOAK_WORKERS"] ?? "") ?? 24
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("courier-soak-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: downloads) }
        let endpoints = Endpoints(
            http: http,
            https: https,
            faultHTTP: faultHTTP,
            faultH2: faultH2,
            downloadDirectory: downloads
        )

        let before = sample()
        log("soak: descriptors before: \(openDescriptors().joined(separator: ", "))")
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        configuration.tls.caFile = caFile
        let transport = CurlTransport(configuration: configuration)
        let session = SessionManager(transport: transport, interceptor: RetryPolicy())

        let warmUp = min(10, max(1, seconds / 10))
        log(
            "soak: \(workers) workers for \(seconds) s (the first \(warmUp) s are warm-up); \(before.descriptors) descriptors, \(String(format: "%.1f", before.rssMiB)) MiB before the transport"
        )
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let (tally, baseline) = await withTaskGroup(of: Tally.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    await Self.worker(worker, session: session, endpoints: endpoints, until: deadline)
                }
            }
            // While the workers run: the warm baseline once, then a progress line every 30 s.
            try? await Task.sleep(until: start + .seconds(warmUp))
            let baseline = sample()
            var next = start + .seconds(30)
            while next < deadline {
                try? await Task.sleep(until: next)
                let now = sample()
                log(
                    "soak: t=\((next - start).components.seconds) s rss=\(String(format: "%.1f", now.rssMiB)) MiB descriptors=\(now.descriptors)"
                )
                next += .seconds(30)
            }
            var total = Tally()
            for await part in group { total.merge(part) }
            return (total, baseline)
        }
        let end = sample()
        await session.shutdown()
        await transport.shutdown()
        let after = sample()
        if after.descriptors != before.descriptors {
            log("soak: descriptors after shutdown: \(openDescriptors().joined(separator: ", "))")
        }

        for operation in Operation.allCases {
            emit(
                BenchLine(
                    workload: "soak-op",
                    variant: operation.rawValue,
                    metrics: [("completed", Double(tally.byOperation[operation.rawValue, default: 0]))]
                )
            )
        }
        for (kind, count) in tally.failures.sorted(by: { $0.key < $1.key }) {
            emit(BenchLine(workload: "soak-errors", variant: kind, metrics: [("count", Double(count))]))
        }
        emit(
            BenchLine(
                workload: "soak",
                variant: "courier",
                metrics: [
                    ("seconds", Double(seconds)),
                    ("workers", Double(workers)),
                    ("completed", Double(tally.completed)),
                    ("cancelled_on_purpose", Double(tally.cancelledOnPurpose)),
                    ("unexpected_errors", Double(tally.unexpected)),
                    ("mib_up", (Double(tally.uploadedBytes) / 1_048_576).rounded()),
                    ("mib_down", (Double(tally.downloadedBytes) / 1_048_576).rounded()),
                    ("rss_warm_mib", (baseline.rssMiB * 10).rounded() / 10),
                    ("rss_end_mib", (end.rssMiB * 10).rounded() / 10),
                    ("fds_before", Double(before.descriptors)),
                    ("fds_warm", Double(baseline.descriptors)),
                    ("fds_end", Double(end.descriptors)),
                    ("fds_after_shutdown", Double(after.descriptors)),
                ]
            )
        )
        exit(tally.unexpected == 0 && tally.completed > 0 ? 0 : 1)
    }

    static func worker(
        _ index: Int,
        session: SessionManager,
        endpoints: Endpoints,
        until deadline: ContinuousClock.Instant
    )
        async -> Tally
    {
        var generator = SystemRandomNumberGenerator()
        var tally = Tally()
        let totalWeight = Operation.allCases.reduce(0) { $0 + $1.weight }
        while ContinuousClock.now < deadline {
            var pick = Int.random(in: 0..<totalWeight, using: &generator)
            let operation =
                Operation.allCases.first { operation in
                    pick -= operation.weight
                    return pick < 0
                } ?? .smallHTTP1
            // One in ten of the ordinary operations is cancelled at a random moment in its first
            // 20 ms; the stall is always cancelled, later.
            let cancelAfter: Duration? =
                operation == .stallCancelled
                ? .milliseconds(Int.random(in: 50...250, using: &generator))
                : (!operation.isFault && Int.random(in: 0..<10, using: &generator) == 0
                    ? .microseconds(Int.random(in: 0...20_000, using: &generator)) : nil)
            let task = Task { await perform(operation, session: session, endpoints: endpoints, worker: index) }
            if let cancelAfter {
                try? await Task.sleep(for: cancelAfter)
                task.cancel()
            }
            let outcome = await task.value
            tally.completed += 1
            tally.byOperation[operation.rawValue, default: 0] += 1
            tally.uploadedBytes += outcome.uploaded
            tally.downloadedBytes += outcome.downloaded
            guard let error = outcome.error else { continue }
            let kind = describe(error.kind)
            tally.failures[kind, default: 0] += 1
            if error.kind == .cancelled && cancelAfter != nil {
                tally.cancelledOnPurpose += 1
            } else if !operation.isFault {
                tally.unexpected += 1
                log("soak: unexpected failure of \(operation.rawValue): \(error)")
            }
        }
        return tally
    }

    struct Outcome: Sendable {
        var error: SessionError?
        var uploaded: Int64 = 0
        var downloaded: Int64 = 0
    }

    static func perform(_ operation: Operation, session: SessionManager, endpoints: Endpoints, worker: Int) async
        -> Outcome
    {
        func url(_ base: String, _ path: String) -> URL? { URL(string: base + path) }
        func data(_ request: HTTPRequest) async -> Outcome {
            let response = await session.response(for: request, serializer: DataResponseSerializer())
            return Outcome(
                error: response.error,
                uploaded: response.metrics.reduce(0) { $0 + $1.requestBodyBytes },
                downloaded: Int64(response.value?.count ?? 0)
            )
        }
        let target: URL? =
            switch operation {
            case .smallHTTP1: url(endpoints.http, "/small")
            case .smallHTTP2: url(endpoints.https, "/small")
            case .upload64KiB: url(endpoints.http, "/upload")
            case .downloadToFile: url(endpoints.http, "/upload-probe")
            case .downloadHTTP2: url(endpoints.https, "/text.txt")
            case .resetMidBody: url(endpoints.faultHTTP, "/reset-mid-body")
            case .streamReset: url(endpoints.faultH2, "/rst-stream")
            case .stallTimeout, .stallCancelled: url(endpoints.faultHTTP, "/stall")
            }
        guard let target else {
            return Outcome(
                error: SessionError(kind: .transport(.invalidRequest), message: "bad soak URL", failingURL: nil)
            )
        }
        switch operation {
        case .upload64KiB:
            let body = HTTPBody(Data(repeating: UInt8(ascii: "s"), count: 64 << 10))
            return await data(HTTPRequest(method: .post, url: target, body: body))
        case .downloadToFile:
            // One partial file per worker, which runs one operation at a time.
            let options = DownloadOptions(partialFilePath: endpoints.downloadDirectory + "/worker-\(worker).part")
            let response = await session.download(for: HTTPRequest(url: target), options: options, to: nil)
            return Outcome(error: response.error, downloaded: response.error == nil ? 3 << 20 : 0)
        case .stallTimeout:
            var request = HTTPRequest(url: target)
            request.timeout = .milliseconds(300)
            return await data(request)
        default:
            return await data(HTTPRequest(url: target))
        }
    }

    static func describe(_ kind: SessionError.Kind) -> String {
        switch kind {
        case .transport(let category): "transport.\(category)"
        default: "\(kind)"
        }
    }
}

extension SoakClient.Tally {
    mutating func merge(_ other: SoakClient.Tally) {
        completed += other.completed
        byOperation.merge(other.byOperation, uniquingKeysWith: +)
        failures.merge(other.failures, uniquingKeysWith: +)
        cancelledOnPurpose += other.cancelledOnPurpose
        unexpected += other.unexpected
        uploadedBytes += other.uploadedBytes
        downloadedBytes += other.downloadedBytes
    }
}
