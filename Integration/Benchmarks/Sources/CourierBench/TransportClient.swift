import CourierCurl
import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Synchronization

/// `CourierBench child-transport <options>`: the `courier` variant of `ci/bench transport`.
///
/// It takes the same options as `reference/curl_reference.c` and does the same work: N requests
/// with C in flight, response bodies dropped as they arrive (here by the consumer of
/// `transfer.events`), one figure line on stdout in the C client's format. The C client's other
/// shapes have the same options here: `--output-dir` (bodies through the `.file` destination,
/// ``perform(_:toFile:on:)``), several `--url`s taken in turn, `--round` with `--min-seconds`
/// (``runRounds(options:_:)``) and `--max-streams`. CPU is
/// `getrusage(RUSAGE_SELF)` over the measured region (all threads: the transport's loop thread and
/// the cooperative pool), as in the C client; the transport is created before the clock starts,
/// like the C client's multi handle. Peak RSS is `VmHWM`, as in the C client (see there why not
/// `ru_maxrss`).
enum TransportClient {
    struct Options {
        /// Requests go to these in turn; the session variants use the first.
        var urls: [URL] = []
        var url: URL? { urls.first }
        var requests = 1000
        var concurrency = 1
        var postBytes = 0
        var caFile: String?
        var http2 = false
        var maxHostConnections = 32
        var maxConnects = 0
        var bufferSize = 0
        /// HTTP/2 streams per connection; 0 keeps the transport's default (100, libcurl's too).
        var maxStreams = 0
        /// Where `.file` downloads go, one file per request, deleted when it has been measured.
        var outputDirectory: String?
        /// Requests per URL per round (all of a round in flight at once); 0, no rounds.
        var round = 0
        /// In rounds: the next round starts until this long has passed.
        var minSeconds = 0.0
        /// `group` (a task per request, the default, as in `URLSessionClient`) or `workers` (C
        /// long-lived tasks); `--consumer workers` is for profiling the consumer side.
        var consumer = "group"
        /// `--lean 1` turns off what the C client does not do (cookie engine, `Accept-Encoding`),
        /// to see what those defaults cost; the benchmark rows run CurlTransport's defaults.
        var lean = false
        /// `transport` (the default: transfers straight on CurlTransport), `session` (the HTTP
        /// session manager with the data response serializer) or `session-json` (the same with a
        /// `Decodable` model): the `ci/bench session` rows.
        var via = "transport"
        /// `pool` (the default: consumers on the cooperative pool) or `loop` (the whole workload
        /// prefers the transport's loop-thread executor, `CurlTransport.executor`).
        var executor = "pool"
    }

    /// What one transfer came to.
    struct Outcome: Sendable {
        var ok = false
        var bytesDown: Int64 = 0
        var bytesUp: Int64 = 0
        var newConnection = false
    }

    /// What the whole workload came to.
    struct Tally {
        var count = 0
        var ok = 0
        var connects = 0
        var bytesDown: Int64 = 0
        var bytesUp: Int64 = 0

        mutating func add(_ outcome: Outcome) {
            count += 1
            if outcome.ok { ok += 1 }
            if outcome.newConnection { connects += 1 }
            bytesDown += outcome.bytesDown
            bytesUp += outcome.bytesUp
        }

        mutating func merge(_ other: Tally) {
            count += other.count
            ok += other.ok
            connects += other.connects
            bytesDown += other.bytesDown
            bytesUp += other.bytesUp
        }
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let key = iterator.next() {
            guard let value = iterator.next() else { return nil }
            switch key {
            case "--url":
                guard let url = URL(string: value) else { return nil }
                options.urls.append(url)
            case "--requests": options.requests = Int(value) ?? 0
            case "--concurrency": options.concurrency = Int(value) ?? 0
            case "--post-bytes": options.postBytes = Int(value) ?? 0
            case "--cafile": options.caFile = value
            case "--http2": options.http2 = value == "1"
            case "--max-host-connections": options.maxHostConnections = Int(value) ?? 0
            case "--max-connects": options.maxConnects = Int(value) ?? 0
            case "--buffer-size": options.bufferSize = Int(value) ?? 0
            case "--consumer": options.consumer = value
            case "--lean": options.lean = value == "1"
            case "--via": options.via = value
            case "--executor": options.executor = value
            case "--max-streams": options.maxStreams = Int(value) ?? -1
            case "--output-dir": options.outputDirectory = value
            case "--round": options.round = Int(value) ?? -1
            case "--min-seconds": options.minSeconds = Double(value) ?? -1
            default:
                log("unknown option \(key)")
                return nil
            }
        }
        guard options.url != nil, options.requests > 0, options.concurrency > 0, options.maxStreams >= 0,
            options.round >= 0, options.minSeconds >= 0,
            ["transport", "session", "session-json", "session-cache-hit", "session-cache-revalidate"].contains(
                options.via
            )
        else { return nil }
        return options
    }

    /// The C client's settings, expressed as a transport configuration.
    static func configuration(for options: Options) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = options.maxHostConnections
        let inFlight = options.round > 0 ? options.round * options.urls.count : options.concurrency
        configuration.connectionCacheSize = options.maxConnects > 0 ? options.maxConnects : inFlight + 4
        if options.maxStreams > 0 { configuration.maxConcurrentStreams = options.maxStreams }
        // 0 means libcurl's default (CURL_MAX_WRITE_SIZE, 16 KiB), as in the C client.
        configuration.receiveBufferSize = options.bufferSize > 0 ? options.bufferSize : 16 << 10
        configuration.httpVersion = options.http2 ? .automatic : .http1_1
        configuration.proxy = .none
        configuration.tls.caFile = options.caFile
        if options.lean {
            configuration.cookiePolicy = .disabled
            configuration.automaticDecompression = false
        }
        return configuration
    }

    static func run(_ arguments: [String]) async {
        guard let options = parse(arguments), let url = options.url else {
            log(
                "usage: CourierBench child-transport --url U --requests N --concurrency C [--post-bytes B] "
                    + "[--cafile F] [--http2 0|1] [--max-host-connections M] [--max-connects K] [--buffer-size S] [--via transport|session|session-json|session-cache-hit|session-cache-revalidate]"
                    + " [--url V ...] [--max-streams S] [--output-dir D] [--round K --min-seconds T]"
            )
            exit(2)
        }
        let transport = CurlTransport(configuration: configuration(for: options))
        if let error = transport.configurationError {
            log("transport configuration: \(error)")
            exit(1)
        }
        let request: HTTPRequest
        if options.postBytes > 0 {
            let body = Data(repeating: UInt8(ascii: "x"), count: options.postBytes)
            request = HTTPRequest(method: .post, url: url, body: HTTPBody(body))
        } else {
            request = HTTPRequest(url: url)
        }

        // The session's layers are built before the clock starts, as the transport is, and only for
        // the session rows: the transport rows' memory is the transport's alone.
        let cached = SessionClient.CachedVariant(via: options.via)
        let api =
            options.via == "transport"
            ? nil
            : HTTPSessionManager(
                baseURL: nil,
                session: cached?.session(on: transport)
                    ?? SessionManager(transport: transport, interceptor: RetryPolicy())
            )
        let perform: @Sendable () async -> Outcome =
            switch (options.via, api, cached) {
            case ("session", let api?, _): { await SessionClient.data(url.absoluteString, on: api) }
            case ("session-json", let api?, _): { await SessionClient.decodable(url.absoluteString, on: api) }
            case (_, let api?, let cached?): { await cached.data(url.absoluteString, on: api) }
            default: Self.transportPerform(options, request: request, on: transport)
            }
        // The cached rows measure a warm cache: one unmeasured request stores the response.
        if let api, let cached, await !cached.data(url.absoluteString, on: api, warming: true).ok {
            log("the request that fills the cache failed")
            exit(1)
        }

        let cpuStart = processCPUMicroseconds()
        let start = ContinuousClock.now
        let workload: @Sendable () async -> Tally = {
            options.round > 0
                ? await runRounds(options: options, perform)
                : options.consumer == "workers"
                    ? await runWorkers(options: options, perform)
                    : await runTaskPerRequest(options: options, perform)
        }
        let total =
            options.executor == "loop"
            ? await withTaskExecutorPreference(transport.executor, operation: workload)
            : await workload()
        let elapsed = ContinuousClock.now - start
        let cpu = processCPUMicroseconds() - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "requests=\(total.count) ok=\(total.ok) seconds=\(String(format: "%.6f", seconds))"
                + " cpu_us=\(Int(cpu)) rss_kib=\(Int(peakRSSMiB() * 1024)) bytes_down=\(total.bytesDown)"
                + " bytes_up=\(total.bytesUp) connects=\(total.connects)"
        )
        fflush(nil)
        await api?.shutdown()
        await transport.shutdown()
        exit(total.ok == total.count && (options.round > 0 || total.count == options.requests) ? 0 : 1)
    }

    /// C long-lived tasks, each running its share of the requests one after another: the shape of
    /// C connections each doing request after request, and one thread hop fewer per request than a
    /// task per request (no child-task completion to hand back to a parent).
    static func runWorkers(options: Options, _ perform: @escaping @Sendable () async -> Outcome) async -> Tally {
        let claimed = RequestCounter()
        return await withTaskGroup(of: Tally.self, returning: Tally.self) { group in
            for _ in 0..<min(options.concurrency, options.requests) {
                group.addTask {
                    var tally = Tally()
                    while claimed.next.add(1, ordering: .relaxed).oldValue < options.requests {
                        tally.add(await perform())
                    }
                    return tally
                }
            }
            var total = Tally()
            for await tally in group { total.merge(tally) }
            return total
        }
    }

    /// A child task per request in a task group, the next one added as one finishes (the pattern of
    /// `URLSessionClient`).
    static func runTaskPerRequest(options: Options, _ perform: @escaping @Sendable () async -> Outcome) async -> Tally {
        await withTaskGroup(of: Outcome.self, returning: Tally.self) { group in
            var issued = 0
            var total = Tally()
            while issued < min(options.concurrency, options.requests) {
                issued += 1
                group.addTask { await perform() }
            }
            while let outcome = await group.next() {
                total.add(outcome)
                if issued < options.requests {
                    issued += 1
                    group.addTask { await perform() }
                }
            }
            return total
        }
    }

    /// One transfer, consumed the way an application streams a body: chunks counted and dropped.
    static func perform(_ request: HTTPRequest, on transport: CurlTransport) async -> Outcome {
        await consume(transport.startTransfer(request, options: TransferOptions()))
    }

    /// Reads a transfer's events to the end; body chunks are counted in `bytesDown` and dropped.
    static func consume(_ transfer: HTTPTransfer) async -> Outcome {
        var outcome = Outcome()
        var status = 0
        for await event in transfer.events {
            switch event {
            case .response(let response):
                status = response.status.code
            case .body(let chunk):
                outcome.bytesDown += Int64(chunk.count)
            case .completed(let metrics):
                outcome.ok = status == 200
                outcome.bytesUp = metrics.requestBodyBytes
                outcome.newConnection = !metrics.reusedConnection
                if !outcome.ok { log("request failed: status \(status)") }
            case .failed(let error):
                log("request failed: \(error)")
            case .uploadProgress, .downloadProgress, .redirect:
                break
            }
        }
        return outcome
    }
}

/// Hands out request numbers to the worker tasks.
final class RequestCounter: Sendable {
    let next = Atomic<Int>(0)
}
