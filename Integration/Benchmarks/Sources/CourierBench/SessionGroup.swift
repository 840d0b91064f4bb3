import Foundation

/// `session`: the HTTP session manager against the C client and the bare transport, on the loopback
/// nginx, in the same run.
///
/// Three variants per row, each a fresh child process, runs interleaved: `c` is the C client on the
/// libcurl multi interface, `transport` is CurlTransport alone (the `courier` variant of
/// `ci/bench transport`), `courier` is `HTTPSessionManager` over the same transport with the
/// default `RetryPolicy` and redirect handling: per request, the manager builds the request
/// through its request serializer, runs the task (registry, state machine, interceptors, events),
/// validates and serializes the response. `ratio`/`cpu_ratio` pair each run with the C client's
/// run of the same round; `overhead_us_per_req` pairs `courier` with `transport` (the session's own
/// CPU per request). `session-json-c32` decodes a small JSON body into a `Decodable` model; its
/// `decode_us_per_req` is one decode of that body measured in this process, so the session's
/// overhead and the decoder's cost can be told apart.
///
/// `session-small-c32` has two more variants, the same GET through a session with a memory HTTP
/// cache that holds the response: `cached` serves it without a transfer, `revalidated` asks nginx
/// each time and gets a `304` (the body comes from the cache). Their `ratio_to_uncached` pairs
/// them with the `courier` variant's run of the same round.
enum SessionGroup {
    struct Row {
        let name: String
        let path: String
        let via: String
        var cachedVariants = false

        var variants: [Variant] { cachedVariants ? Variant.allCases : [.c, .transport, .courier] }
    }

    static let rows = [
        Row(name: "session-small-c32", path: "/small", via: "session", cachedVariants: true),
        Row(name: "session-json-c32", path: "/small.json", via: "session-json"),
    ]
    static let requests = 20_000
    static let concurrency = 32

    enum Variant: String, CaseIterable {
        case c
        case transport
        case courier
        case cached
        case revalidated
    }

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let httpURL = environment["TEST_HTTP_URL"] else {
            log("session: TEST_HTTP_URL must be set (ci/bench starts the servers)")
            exit(2)
        }
        let reference = TransportGroup.curlReference(for: "session")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        log(
            "session: \(requests) GETs at concurrency \(concurrency) over HTTP/1.1 to \(httpURL), settings \(TransportGroup.settings.joined(separator: " "))"
        )
        let www = environment["TEST_WWW_DIR"]
        for row in rows {
            let url = httpURL + row.path
            let arguments =
                ["--url", url, "--requests", String(requests), "--concurrency", String(concurrency), "--http2", "0"]
                + TransportGroup.settings
            let bodySize = www.flatMap { TransportGroup.bodySize(of: row.path, in: $0) }
            let workload = TransportGroup.Workload(
                name: row.name,
                path: row.path,
                requests: requests,
                concurrency: concurrency
            )
            var figures: [Variant: [Int: TransportFigures]] = [:]
            var failures: [Variant: Int] = [:]
            for run in 0..<benchRuns {
                for variant in row.variants {
                    let command: [String] =
                        switch variant {
                        case .c: [reference] + arguments
                        case .transport: [executable, "child-transport"] + arguments
                        case .courier: [executable, "child-transport"] + arguments + ["--via", row.via]
                        case .cached: [executable, "child-transport"] + arguments + ["--via", "session-cache-hit"]
                        case .revalidated:
                            [executable, "child-transport"] + arguments + ["--via", "session-cache-revalidate"]
                        }
                    let label = "session \(row.name) run \(run + 1) \(variant.rawValue)"
                    switch TransportGroup.measureChild(command) {
                    case .success(let figure):
                        if let problem = TransportGroup.check(figure, workload, expectedBodySize: bodySize) {
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
            var decode: Double?
            if row.via == "session-json", let www, let body = FileManager.default.contents(atPath: www + row.path),
                let parsed = URL(string: url)
            {
                decode = SessionClient.decodeMicroseconds(of: body, url: parsed)
            }
            for variant in row.variants where variant != .c {
                report(row.name, variant, figures, failures: failures[variant, default: 0], decode: decode)
            }
            report(row.name, .c, figures, failures: failures[.c, default: 0], decode: nil)
        }
    }

    static func report(
        _ name: String,
        _ variant: Variant,
        _ figures: [Variant: [Int: TransportFigures]],
        failures: Int,
        decode: Double?
    ) {
        let own = figures[variant, default: [:]]
        guard !own.isEmpty else {
            emit(BenchLine(workload: name, variant: variant.rawValue, metrics: [("failed_runs", Double(failures))]))
            return
        }
        var metrics: [(String, Double)] = [
            ("rps", median(own.values.map(\.requestsPerSecond)).rounded()),
            ("cpu_us_per_req", TransportGroup.rounded(median(own.values.map(\.cpuMicrosecondsPerRequest)), places: 1)),
            ("rss_mib", TransportGroup.rounded(median(own.values.map(\.rssMiB)), places: 1)),
        ]
        if let server = TransportGroup.medianServerCPU(own.values) {
            metrics.append(("server_cpu_us_per_req", TransportGroup.rounded(server, places: 1)))
        }
        if variant != .c { metrics += TransportGroup.ratios(own, against: figures[.c, default: [:]]) }
        func paired(with other: Variant, _ value: (TransportFigures, TransportFigures) -> Double) -> Double? {
            TransportGroup.pairedMedian(own, figures[other, default: [:]], value)
        }
        if variant == .courier {
            if let ratio = paired(with: .transport, { $0.requestsPerSecond / $1.requestsPerSecond }) {
                metrics.append(("ratio_to_transport", TransportGroup.rounded(ratio, places: 2)))
            }
            if let overhead = paired(with: .transport, { $0.cpuMicrosecondsPerRequest - $1.cpuMicrosecondsPerRequest })
            {
                metrics.append(("overhead_us_per_req", TransportGroup.rounded(overhead, places: 1)))
            }
            if let decode { metrics.append(("decode_us_per_req", TransportGroup.rounded(decode, places: 1))) }
        }
        if variant == .cached || variant == .revalidated,
            let ratio = paired(with: .courier, { $0.requestsPerSecond / $1.requestsPerSecond })
        {
            metrics.append(("ratio_to_uncached", TransportGroup.rounded(ratio, places: 2)))
        }
        if failures > 0 { metrics.append(("failed_runs", Double(failures))) }
        emit(BenchLine(workload: name, variant: variant.rawValue, metrics: metrics))
    }
}
