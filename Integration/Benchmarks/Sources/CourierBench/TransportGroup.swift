import Foundation

/// `transport`: CurlTransport against a plain C client on the libcurl multi interface
/// (`reference/curl_reference.c`) and against FoundationNetworking's URLSession, on the loopback
/// nginx that `ci/servers` starts.
///
/// Every measurement is a fresh child process printing one figure line (``TransportFigures``):
/// `c` is the C client (`COURIER_CURL_REFERENCE`, built by `ci/bench`), `courier` is
/// `CourierBench child-transport` (``TransportClient``), `courier-loop` the same with the workload
/// preferring the transport's loop-thread executor, `urlsession` is `URLSessionClient` from
/// this package. The C client and the courier child get identical settings (``settings``). Runs are
/// interleaved (c, courier, urlsession, c, …) and the stdout line carries medians over the runs
/// that succeeded; `ratio` and `cpu_ratio` are medians of the per-run ratios to the C client of the
/// same run. A run in which any request failed, a body came short or the client exited non-zero is
/// logged and counted in `failed_runs=`, never averaged in.
enum TransportGroup {
    struct Workload {
        let name: String
        let path: String
        let requests: Int
        let concurrency: Int
        var postBytes = 0
        /// Reported in MiB/s and CPU milliseconds per request rather than requests per second.
        var isDownload = false
        var tls = false
        /// Which of HTTP/1.1 (`false`) and HTTP/2 over TLS (`true`) the row runs.
        var protocols = [false, true]
        /// Bodies go to a file each (the `.file` destination; the C client `write(2)`s them).
        var toFile = false
        /// HTTP/2 streams per connection for both clients (`--max-streams`); `nil`, the default 100.
        var maxStreams: Int?
        /// Overrides the connection cache of ``settings`` (`--max-connects`).
        var maxConnects: Int?
        /// Rounds of this many requests per origin of `TEST_ORIGIN_URLS`, all in flight at once,
        /// for at least `minSeconds` (`requests` and `concurrency` are then unused); 0, no rounds.
        var round = 0
        var minSeconds = 0.0
        /// Whether URLSession runs the row too (only the rows it can run as the C client does).
        var urlSession = true
    }

    enum Variant: String, CaseIterable {
        case c
        case courier
        /// CurlTransport with the whole workload preferring its loop-thread executor
        /// (`CurlTransport.executor`): consumers resumed where the events are produced.
        case courierLoop = "courier-loop"
        case urlsession
    }

    /// The connection settings both the C client and CurlTransport run with: CurlTransport's
    /// defaults (32 connections per host, a 64-connection cache, a 256 KiB receive buffer; pipewait
    /// and multiplexing are always on in both, and HTTP/2 uses libcurl's default of 100 streams per
    /// connection). A row may raise the stream limit or the cache (``settings(for:)``), for both.
    static let settings = [
        "--max-host-connections", "32", "--max-connects", "64", "--buffer-size", String(256 << 10),
    ]

    static let baseWorkloads = [
        Workload(name: "small-c1", path: "/small", requests: 5_000, concurrency: 1),
        Workload(name: "small-c32", path: "/small", requests: 20_000, concurrency: 32),
        // 20 downloads a round: a round of 5 lasted 0.12–0.26 s, too short for its CPU time, and
        // single rounds' CPU ratios ranged from 0.8 to 3.2 in one run.
        Workload(name: "download-100m", path: "/big-100m", requests: 20, concurrency: 1, isDownload: true),
        Workload(name: "post-64k-c8", path: "/upload", requests: 2_000, concurrency: 8, postBytes: 64 << 10),
        // download-100m streams the body to a consuming task, against a C client that drops it in
        // its write callback; this row writes it to a file in both (the same directory).
        Workload(
            name: "download-100m-file",
            path: "/big-100m",
            requests: 5,
            concurrency: 1,
            isDownload: true,
            toFile: true,
            urlSession: false
        ),
        // 256 streams on one HTTP/2 connection: nginx and both clients allow 256.
        Workload(
            name: "small-c256",
            path: "/small",
            requests: 20_000,
            concurrency: 256,
            protocols: [true],
            maxStreams: 256,
            urlSession: false
        ),
        // 32 origins × 8 requests in flight; the connection cache holds all 256 connections of a
        // round (the default 64 would close three in four after each round and reopen them).
        Workload(
            name: "many-hosts",
            path: "/small",
            requests: 0,
            concurrency: 0,
            protocols: [false],
            maxConnects: 260,
            round: 8,
            minSeconds: 1,
            urlSession: false
        ),
    ]

    static var workloads: [Workload] {
        baseWorkloads.flatMap { workload -> [Workload] in
            workload.protocols.map { tls in
                var variant = workload
                variant.tls = tls
                return variant
            }
        }
    }

    /// ``settings`` with the row's own stream limit and connection cache.
    static func settings(for workload: Workload) -> [String] {
        var arguments = settings
        if let maxConnects = workload.maxConnects, let index = arguments.firstIndex(of: "--max-connects") {
            arguments[index + 1] = String(maxConnects)
        }
        if let maxStreams = workload.maxStreams { arguments += ["--max-streams", String(maxStreams)] }
        return arguments
    }

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let httpURL = environment["TEST_HTTP_URL"], let httpsURL = environment["TEST_HTTPS_URL"],
            let caFile = environment["TEST_CA_FILE"]
        else {
            log("transport: TEST_HTTP_URL, TEST_HTTPS_URL and TEST_CA_FILE must be set (ci/bench starts the servers)")
            exit(2)
        }
        let reference = curlReference(for: "transport")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let binDirectory = (executable as NSString).deletingLastPathComponent
        let urlSessionClient = binDirectory + "/URLSessionClient"
        let hasURLSession = FileManager.default.isExecutableFile(atPath: urlSessionClient)
        if !hasURLSession { log("transport: skipping urlsession rows: \(urlSessionClient) is not built") }
        let trustReason = hasURLSession ? URLSessionTrust.unavailableReason(caFile: caFile) : nil
        if let trustReason {
            log("transport: skipping urlsession h2 (TLS) rows: \(trustReason)")
        } else if hasURLSession {
            log(
                "transport: urlsession -h2 rows run under unshare -m with \(caFile) bind-mounted over "
                    + "\(URLSessionTrust.systemBundle) in that namespace only (URLSession verifies; C and courier use --cafile)"
            )
        }
        log("transport: C and courier settings: \(settings.joined(separator: " ")), pipewait on, multiplexing on")
        log("transport: HTTP/1.1 rows use \(httpURL), -h2 rows \(httpsURL) (TLS, h2 via ALPN, CA \(caFile))")
        let www = environment["TEST_WWW_DIR"]
        let origins = environment["TEST_ORIGIN_URLS"].map { $0.split(separator: ",").map(String.init) } ?? []

        // COURIER_BENCH_WORKLOADS=small-c1,post-64k-c8-h2 runs only those rows (for profiling).
        let only = environment["COURIER_BENCH_WORKLOADS"].map { Set($0.split(separator: ",").map(String.init)) }
        for workload in workloads {
            let name = workload.name + (workload.tls ? "-h2" : "")
            if let only, !only.contains(name) { continue }
            let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            log("transport: \(name): loadavg \(load?.joined(separator: " ") ?? "?") before the row")
            let url = (workload.tls ? httpsURL : httpURL) + workload.path
            var arguments: [String]
            if workload.round > 0 {
                guard !origins.isEmpty else {
                    log("transport: skipping \(name): TEST_ORIGIN_URLS is not set (servers from an older ci/servers)")
                    continue
                }
                arguments = origins.flatMap { ["--url", $0 + workload.path] }
                arguments += ["--round", String(workload.round), "--min-seconds", String(workload.minSeconds)]
            } else {
                arguments = ["--url", url, "--requests", String(workload.requests)]
                arguments += ["--concurrency", String(workload.concurrency)]
            }
            if workload.postBytes > 0 { arguments += ["--post-bytes", String(workload.postBytes)] }
            let outputDirectory = workload.toFile ? makeOutputDirectory(for: name) : nil
            if workload.toFile && outputDirectory == nil { continue }
            defer { if let outputDirectory { removeOutputDirectory(outputDirectory) } }
            if let outputDirectory { arguments += ["--output-dir", outputDirectory] }
            let rowSettings = settings(for: workload)
            if rowSettings != settings { log("transport: \(name): settings \(rowSettings.joined(separator: " "))") }
            let expectedBodySize = www.flatMap { bodySize(of: workload.path, in: $0) }

            if workload.postBytes > 0 {
                warmUpstream(reference, url: url, workload, extra: rowSettings + tlsArguments(workload, caFile: caFile))
            }
            if workload.isDownload {
                warmPageCache(
                    reference,
                    url: url,
                    workload,
                    extra: rowSettings + tlsArguments(workload, caFile: caFile)
                )
            }
            var variants: [Variant] = [.c, .courier, .courierLoop]
            if hasURLSession && workload.urlSession && (!workload.tls || trustReason == nil) {
                variants.append(.urlsession)
            }
            var figures: [Variant: [Int: TransportFigures]] = [:]
            var failures: [Variant: Int] = [:]
            for run in 0..<benchRuns {
                for variant in variants {
                    let command: [String]
                    switch variant {
                    case .c:
                        command = [reference] + arguments + rowSettings + tlsArguments(workload, caFile: caFile)
                    case .courier, .courierLoop:
                        command =
                            [executable, "child-transport"] + arguments + rowSettings
                            + tlsArguments(workload, caFile: caFile)
                            + (variant == .courierLoop ? ["--executor", "loop"] : [])
                    case .urlsession:
                        let client = [urlSessionClient] + arguments
                        command = workload.tls ? URLSessionTrust.wrap(client, caFile: caFile) : client
                    }
                    let label = "transport \(name) run \(run + 1) \(variant.rawValue)"
                    switch measureChild(command) {
                    case .success(let figure):
                        if let problem = check(
                            figure,
                            workload,
                            origins: origins.count,
                            expectedBodySize: expectedBodySize
                        ) {
                            log("\(label): FAILED: \(problem) (\(figure.summary))")
                            failures[variant, default: 0] += 1
                        } else {
                            log("\(label): \(figure.summary)")
                            figures[variant, default: [:]][run] = figure
                        }
                    case .failure(let problem):
                        log("\(label): FAILED: \(problem.message)")
                        failures[variant, default: 0] += 1
                    }
                }
            }
            for variant in variants {
                report(name, workload, variant, figures: figures, failures: failures[variant, default: 0])
            }
        }
    }

    /// nginx proxies `/upload` to a small upload sink whose listen backlog is short: when nginx
    /// opens its first upstream connections all at once, a few `connect()`s fail (EAGAIN) and those
    /// requests get 502. An unmeasured pass of the C client at the workload's concurrency fills
    /// nginx's upstream keep-alive pool first, so the measured runs see only the clients' behaviour.
    static func warmUpstream(_ reference: String, url: String, _ workload: Workload, extra: [String]) {
        var arguments = ["--url", url, "--requests", String(workload.concurrency * 16)]
        arguments += ["--concurrency", String(workload.concurrency), "--post-bytes", String(workload.postBytes)]
        for attempt in 1...3 {
            if case .success = measureChild([reference] + arguments + extra, quiet: true) {
                log("transport: \(workload.name) upstream warm-up clean (attempt \(attempt))")
                return
            }
        }
        log("transport: \(workload.name) upstream warm-up still saw failures after 3 attempts")
    }

    /// The first read of a large file nginx serves may come from the disk: one such round of the C
    /// client took 1.07–1.20 s instead of 0.5–0.7 (reproduced by dropping the page cache), and the
    /// C client runs first in every round. One unmeasured download reads the file into the cache.
    static func warmPageCache(_ reference: String, url: String, _ workload: Workload, extra: [String]) {
        let arguments = ["--url", url, "--requests", "1", "--concurrency", "1"]
        if case .failure(let problem) = measureChild([reference] + arguments + extra, quiet: true) {
            log("transport: \(workload.name) page-cache warm-up failed: \(problem.message)")
        }
    }

    static func tlsArguments(_ workload: Workload, caFile: String) -> [String] {
        workload.tls ? ["--cafile", caFile, "--http2", "1"] : ["--http2", "0"]
    }

    /// The size of the file nginx serves at `path`, for checking that every body arrived whole.
    static func bodySize(of path: String, in www: String) -> Double? {
        guard path != "/upload" else { return nil }
        let attributes = try? FileManager.default.attributesOfItem(atPath: www + path)
        return (attributes?[.size] as? NSNumber)?.doubleValue
    }

    /// Why a run that exited cleanly still does not count, or `nil` when it does.
    static func check(
        _ figure: TransportFigures,
        _ workload: Workload,
        origins: Int = 0,
        expectedBodySize: Double?
    ) -> String? {
        if workload.round > 0 {
            let roundSize = workload.round * origins
            if figure.requests == 0 || figure.requests % roundSize != 0 {
                return "ran \(figure.requests) requests, not whole rounds of \(roundSize)"
            }
            if figure.seconds < workload.minSeconds {
                return "ran \(figure.seconds) s, not at least \(workload.minSeconds) s"
            }
        } else if figure.requests != workload.requests {
            return "ran \(figure.requests) requests, not \(workload.requests)"
        }
        if figure.ok != figure.requests { return "\(figure.requests - figure.ok) requests failed" }
        if let expectedBodySize, figure.bytesDown != expectedBodySize * Double(figure.requests) {
            return
                "received \(Int64(figure.bytesDown)) body bytes, expected \(Int64(expectedBodySize) * Int64(figure.requests))"
        }
        if workload.postBytes > 0, figure.bytesUp != Double(workload.postBytes * workload.requests) {
            return "sent \(Int64(figure.bytesUp)) body bytes, expected \(workload.postBytes * workload.requests)"
        }
        return nil
    }

    /// A fresh directory for a `toFile` row's downloads, shared by both clients (each deletes its
    /// file after every request); under the system's temporary directory.
    static func makeOutputDirectory(for name: String) -> String? {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-bench-\(name)-\(getpid())").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            log("transport: \(name): cannot create \(directory): \(error)")
            return nil
        }
        log("transport: \(name): downloads go to \(directory), each file deleted after its request")
        return directory
    }

    /// Removes the directory and whatever a failed run left in it.
    static func removeOutputDirectory(_ directory: String) {
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if !left.isEmpty { log("transport: \(left.count) file(s) left in \(directory) (failed runs); removing them") }
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct ChildFailure: Error {
        let message: String
    }

    /// Runs one client process; its stderr passes through, its stdout carries the figure line.
    static func measureChild(_ command: [String], quiet: Bool = false) -> Result<TransportFigures, ChildFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        if quiet { process.standardError = FileHandle.nullDevice }
        let serverBefore = ServerCPU.microseconds()
        do {
            try process.run()
        } catch {
            return .failure(ChildFailure(message: "cannot start \(command[0]): \(error)"))
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let serverAfter = ServerCPU.microseconds()
        let text = String(decoding: data, as: UTF8.self)
        guard var figure = TransportFigures(output: text) else {
            return .failure(ChildFailure(message: "no figure line (exit status \(process.terminationStatus)): \(text)"))
        }
        guard process.terminationStatus == 0 else {
            return .failure(
                ChildFailure(message: "exit status \(process.terminationStatus), \(figure.ok)/\(figure.requests) ok")
            )
        }
        if let serverBefore, let serverAfter { figure.serverCPUMicroseconds = serverAfter - serverBefore }
        return .success(figure)
    }

    static func report(
        _ name: String,
        _ workload: Workload,
        _ variant: Variant,
        figures: [Variant: [Int: TransportFigures]],
        failures: Int
    ) {
        let own = figures[variant, default: [:]]
        let reference = figures[.c, default: [:]]
        guard !own.isEmpty else {
            emit(BenchLine(workload: name, variant: variant.rawValue, metrics: [("failed_runs", Double(failures))]))
            return
        }
        let runs = own.values
        var metrics: [(String, Double)] = []
        if workload.isDownload {
            metrics.append(("mib_per_s", median(runs.map(\.mebibytesPerSecond)).rounded()))
            metrics.append(("cpu_ms_per_req", rounded(median(runs.map(\.cpuMicrosecondsPerRequest)) / 1000, places: 1)))
            if let server = medianServerCPU(runs) {
                metrics.append(("server_cpu_ms_per_req", rounded(server / 1000, places: 1)))
            }
        } else {
            metrics.append(("rps", median(runs.map(\.requestsPerSecond)).rounded()))
            metrics.append(("cpu_us_per_req", median(runs.map(\.cpuMicrosecondsPerRequest)).rounded()))
            if let server = medianServerCPU(runs) {
                metrics.append(("server_cpu_us_per_req", rounded(server, places: 1)))
            }
        }
        metrics.append(("rss_mib", rounded(median(runs.map(\.rssMiB)), places: 1)))
        // Ratios pair each run with the C client's run of the same round.
        metrics += ratios(own, against: reference)
        let connects = runs.compactMap(\.connects)
        if connects.count == runs.count { metrics.append(("connects", median(connects))) }
        if failures > 0 { metrics.append(("failed_runs", Double(failures))) }
        emit(BenchLine(workload: name, variant: variant.rawValue, metrics: metrics))
    }

    /// The C client the groups measure against (`COURIER_CURL_REFERENCE`, built by `ci/bench`);
    /// exits when it is missing.
    static func curlReference(for group: String) -> String {
        guard let reference = ProcessInfo.processInfo.environment["COURIER_CURL_REFERENCE"],
            FileManager.default.isExecutableFile(atPath: reference)
        else {
            log(
                "\(group): COURIER_CURL_REFERENCE must name the compiled reference/curl_reference.c (ci/bench builds it)"
            )
            exit(2)
        }
        return reference
    }

    /// The median of the runs' server CPU per request in microseconds, when every run has one.
    static func medianServerCPU<Runs: Collection<TransportFigures>>(_ runs: Runs) -> Double? {
        let server = runs.compactMap(\.serverCPUMicrosecondsPerRequest)
        return server.isEmpty || server.count != runs.count ? nil : median(server)
    }

    /// `ratio` and `cpu_ratio`: medians of each run's figures over the reference's run of the same
    /// round (none when no round has both); `system_cpu_ratio` the same for client plus server CPU
    /// (``ServerCPU``), when every paired run has the server's figure.
    static func ratios(
        _ own: [Int: TransportFigures],
        against reference: [Int: TransportFigures]
    ) -> [(String, Double)] {
        guard
            let throughput = pairedMedian(own, reference, { $0.requestsPerSecond / $1.requestsPerSecond }),
            let cpu = pairedMedian(own, reference, { $0.cpuMicrosecondsPerRequest / $1.cpuMicrosecondsPerRequest })
        else { return [] }
        var ratios = [("ratio", rounded(throughput, places: 2)), ("cpu_ratio", rounded(cpu, places: 2))]
        let serverKnown = [own, reference].allSatisfy { $0.values.allSatisfy { $0.serverCPUMicroseconds != nil } }
        if serverKnown,
            let system = pairedMedian(
                own,
                reference,
                {
                    ($0.systemCPUMicrosecondsPerRequest ?? 0) / ($1.systemCPUMicrosecondsPerRequest ?? 1)
                }
            )
        {
            ratios.append(("system_cpu_ratio", rounded(system, places: 2)))
        }
        return ratios
    }

    /// The median of `value(run, other run of the same round)`, or `nil` when no round has both.
    static func pairedMedian(
        _ own: [Int: TransportFigures],
        _ other: [Int: TransportFigures],
        _ value: (TransportFigures, TransportFigures) -> Double
    ) -> Double? {
        let pairs = own.compactMap { run, figure in other[run].map { value(figure, $0) } }
        return pairs.isEmpty ? nil : median(pairs)
    }

    /// Result lines carry the precision the run-to-run spread supports, no more.
    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
