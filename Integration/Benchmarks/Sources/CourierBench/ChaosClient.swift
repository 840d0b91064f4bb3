import CourierCurl
import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Synchronization

/// The `chaos` group's child process: `concurrency` workers drive one `SessionManager` (with a
/// `RetryPolicy`) through the seeded fault-injecting proxy (`Integration/servers/chaos_proxy.py`)
/// until the deadline, then the session and the transport shut down and the book is checked.
///
/// Every operation goes through the session's completion-handler API, as an app would use it, and
/// each task is entered in a ``ChaosLedger``; the run fails on a lost or doubled completion, a
/// success whose bytes are wrong, a completion that is neither a value nor a `SessionError`, a
/// hang past the deadline, descriptors or threads above their start count after `shutdown()`, or
/// an end RSS more than 8 MiB over the warm-up's (both sampled after `malloc_trim`, so that they
/// count memory in use; the end's is after the drain, when no transfer is left).
enum ChaosClient {
    enum Operation: String, CaseIterable, Sendable {
        case getSmall = "get-small"
        case postEcho = "post-echo"
        case upload = "post-upload"
        case retried = "get-retried"
        case redirect = "get-redirect"
        case download = "download-resume"
        case stream = "stream-text"
        case h2Fault = "h2-rst-stream"

        var weight: Int {
            switch self {
            case .getSmall: 20
            case .postEcho: 12
            case .upload: 6
            case .retried: 10
            case .redirect: 10
            case .download: 8
            case .stream: 10
            case .h2Fault: 3
            }
        }
    }

    struct Setup: Sendable {
        let nginx: String
        let httpbin: String
        let fault: String
        let faultH2: String
        /// The server's files, for the byte-for-byte comparisons (a SHA-256 of each is hashed once
        /// and reported; a file that differs gets its own hashed for the report).
        let blob: Data
        let blobDigest: String
        let text: Data
        let downloads: String
        let deadline: ContinuousClock.Instant
        let ledger: ChaosLedger
        let session: SessionManager
    }

    struct Sample: Sendable {
        let descriptors: Int
        let threads: Int
        let rssMiB: Double

        /// A sample with glibc's free lists handed back first (`malloc_trim`), so that RSS counts the
        /// memory in use, not the high-water mark of the busiest moment so far, which a fault run
        /// reaches later the longer it goes.
        static func trimmed() -> Sample {
            // Glibc's module map leaves `malloc.h` out: look the function up.
            if let symbol = dlsym(nil, "malloc_trim") {
                _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
            }
            return now()
        }

        static func now() -> Sample {
            let manager = FileManager.default
            return Sample(
                descriptors: (try? manager.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1,
                threads: (try? manager.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1,
                rssMiB: processStatusMiB("VmRSS")
            )
        }

        var text: String {
            "descriptors=\(descriptors) threads=\(threads) rss=\(String(format: "%.1f", rssMiB)) MiB"
        }
    }

    /// The highest descriptor, thread and RSS figures seen while the run goes on.
    final class Peak: Sendable {
        let value = Mutex((descriptors: 0, threads: 0, rssMiB: 0.0))

        func record(_ sample: Sample) {
            value.withLock {
                $0 = (
                    max($0.descriptors, sample.descriptors), max($0.threads, sample.threads),
                    max($0.rssMiB, sample.rssMiB)
                )
            }
        }
    }

    static func run(_ arguments: [String]) async {
        let environment = ProcessInfo.processInfo.environment
        guard arguments.count == 3, let seconds = Int(arguments[0]), let seed = UInt64(arguments[1]),
            let concurrency = Int(arguments[2]),
            let nginx = environment["CHAOS_NGINX_URL"], let httpbin = environment["CHAOS_HTTPBIN_URL"],
            let fault = environment["CHAOS_FAULT_URL"], let faultH2 = environment["FAULT_H2_URL"],
            let caFile = environment["TEST_CA_FILE"], let www = environment["TEST_WWW_DIR"]
        else {
            log("usage: CourierBench child-chaos SECONDS SEED CONCURRENCY (with the chaos proxy's environment)")
            exit(2)
        }
        guard let blob = FileManager.default.contents(atPath: www + "/" + ChaosGroup.blobName),
            let text = FileManager.default.contents(atPath: www + "/text.txt")
        else {
            log("chaos: FAILED: cannot read the served files in \(www)")
            exit(1)
        }
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("courier-chaos-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: downloads) }

        await warmRuntimeTimers()
        let start = Sample.now()
        log("chaos: start: \(start.text)")
        let startDescriptors = SoakClient.openDescriptors()
        let startThreads = threadNames()
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        configuration.tls.caFile = caFile
        // Every worker may hold a connection to the proxy at once (the default, 32, would leave
        // most requests queued behind the stalls until their timeouts).
        configuration.maxConnectionsPerHost = concurrency
        let transport = CurlTransport(configuration: configuration)
        let ledger = ChaosLedger()
        let began = ContinuousClock.now
        let deadline = began + .seconds(seconds)
        let session = SessionManager(transport: transport, interceptor: RetryPolicy())
        let setup = Setup(
            nginx: nginx,
            httpbin: httpbin,
            fault: fault,
            faultH2: faultH2,
            blob: blob,
            blobDigest: ChaosSHA256.hex(of: blob),
            text: text,
            downloads: downloads,
            deadline: deadline,
            ledger: ledger,
            session: session
        )

        // Operations in flight at the deadline get this long to end (their timeouts are shorter);
        // a task still open after it is lost, and the run a hang.
        let grace = Duration.seconds(45)
        let warmUp = Duration.seconds(min(30, max(10, seconds / 10)))
        let peak = Peak()
        let finished = Atomic(false)
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        await Self.worker(worker, seed: seed, setup: setup, until: deadline)
                    }
                }
            }
            finished.store(true, ordering: .releasing)
        }
        try? await Task.sleep(until: began + warmUp)
        let warm = Sample.trimmed()
        peak.record(warm)
        log("chaos: warm (t=\(warmUp)): \(warm.text)")
        var nextReport = began + .seconds(10)
        while !finished.load(ordering: .acquiring) && ContinuousClock.now < deadline + grace {
            try? await Task.sleep(for: .milliseconds(250))
            let now = Sample.now()
            peak.record(now)
            if ContinuousClock.now >= nextReport {
                let book = ledger.snapshot
                log(
                    "chaos: t=\((ContinuousClock.now - began).components.seconds) s started=\(book.started) completed=\(book.completed) \(now.text)"
                )
                nextReport += .seconds(10)
            }
        }
        let hung = !finished.load(ordering: .acquiring)
        var failures: [String] = []
        if hung {
            let open = ledger.snapshot.open
            failures.append("hang: \(open.count) task(s) still open \(grace) after the deadline")
            for (identifier, what) in open.sorted(by: { $0.key < $1.key }).prefix(20) {
                log("chaos: open task #\(identifier): \(what)")
            }
            workers.cancel()
        }
        let end = Sample.trimmed()
        await session.shutdown()
        let afterSession = SoakClient.openDescriptors()
        await transport.shutdown()
        // Threads the run started (libcurl's resolver, the dispatch pool's workers) end on their
        // own once idle for a while (libdispatch's workers after 5 s without work): wait in long
        // sleeps, since a wake-up every moment would keep a worker busy, up to three times.
        var after = Sample.now()
        for _ in 0..<3 where after.descriptors > start.descriptors || after.threads > start.threads {
            try? await Task.sleep(for: .seconds(6))
            after = Sample.now()
        }
        // A completion that comes after its task was counted lost, or a second one, lands here.
        try? await Task.sleep(for: .milliseconds(200))
        let book = ledger.snapshot
        let peakValue = peak.value.withLock { $0 }

        if !hung && book.started != book.completed {
            failures.append("lost completions: started \(book.started), completed \(book.completed)")
        }
        if !book.doubled.isEmpty {
            failures.append("doubled completions: \(book.doubled.prefix(10).joined(separator: ", "))")
        }
        if !book.corrupted.isEmpty {
            failures.append("wrong bytes or untyped outcomes: \(book.corrupted.prefix(10).joined(separator: "; "))")
        }
        if book.downloadsCorrupted > 0 {
            failures.append("\(book.downloadsCorrupted) download(s) not byte-identical to the server's file")
        }
        if after.descriptors > start.descriptors {
            failures.append("descriptors \(after.descriptors) after shutdown, \(start.descriptors) at the start")
            log("chaos: descriptors after shutdown: \(SoakClient.openDescriptors().joined(separator: ", "))")
            log("chaos: descriptors at the start: \(startDescriptors.joined(separator: ", "))")
            log("chaos: descriptors after the session's shutdown: \(afterSession.joined(separator: ", "))")
            log("chaos: sockets: \(socketTable())")
        }
        if after.threads > start.threads {
            failures.append("threads \(after.threads) after shutdown, \(start.threads) at the start")
            log("chaos: threads at the start: \(startThreads.joined(separator: ", "))")
            log("chaos: threads after shutdown: \(threadNames().joined(separator: ", "))")
        }
        if end.rssMiB > warm.rssMiB + 8 {
            failures.append(
                "RSS \(String(format: "%.1f", end.rssMiB)) MiB at the end, more than 8 MiB over the warm-up's \(String(format: "%.1f", warm.rssMiB))"
            )
        }
        if book.completed == 0 || (book.outcomes["ok"] ?? 0) == 0 {
            failures.append("nothing succeeded")
        }

        for operation in Operation.allCases {
            emit(
                BenchLine(
                    workload: "chaos-op",
                    variant: operation.rawValue,
                    metrics: [("completed", Double(book.byOperation[operation.rawValue, default: 0]))]
                )
            )
        }
        for (outcome, count) in book.outcomes.sorted(by: { $0.key < $1.key }) {
            emit(BenchLine(workload: "chaos-outcome", variant: outcome, metrics: [("count", Double(count))]))
        }
        for (kind, count) in book.notes.sorted(by: { $0.key < $1.key }) {
            emit(BenchLine(workload: "chaos-note", variant: kind, metrics: [("count", Double(count))]))
        }
        func mib(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        emit(
            BenchLine(
                workload: "chaos",
                variant: "courier",
                metrics: [
                    ("seconds", Double(seconds)),
                    ("seed", Double(seed)),
                    ("concurrency", Double(concurrency)),
                    ("tasks_started", Double(book.started)),
                    ("tasks_completed", Double(book.completed)),
                    ("lost", Double(book.started - book.completed)),
                    ("doubled", Double(book.doubled.count)),
                    ("retries", Double(book.retries)),
                    ("downloads_identical", Double(book.downloadsIdentical)),
                    ("downloads_corrupted", Double(book.downloadsCorrupted)),
                    ("downloads_given_up", Double(book.downloadsGivenUp)),
                    ("download_resumes", Double(book.resumes)),
                    ("fds_start", Double(start.descriptors)),
                    ("fds_peak", Double(peakValue.descriptors)),
                    ("fds_end", Double(end.descriptors)),
                    ("fds_after_shutdown", Double(after.descriptors)),
                    ("threads_start", Double(start.threads)),
                    ("threads_peak", Double(peakValue.threads)),
                    ("threads_end", Double(end.threads)),
                    ("threads_after_shutdown", Double(after.threads)),
                    ("rss_start_mib", mib(start.rssMiB)),
                    ("rss_warm_mib", mib(warm.rssMiB)),
                    ("rss_peak_mib", mib(peakValue.rssMiB)),
                    ("rss_end_mib", mib(end.rssMiB)),
                ]
            )
        )
        for (outcome, example) in book.examples.sorted(by: { $0.key < $1.key }) {
            log("chaos: \(outcome), for example \(example)")
        }
        for failure in failures {
            log("chaos: FAILED: \(failure)")
        }
        if failures.isEmpty {
            log(
                "chaos: passed: \(book.started) tasks, each completed exactly once; \(book.downloadsIdentical) downloads byte-identical to the server's file (SHA-256 \(setup.blobDigest))"
            )
        }
        // A hung run cannot wait for its workers: leave at once.
        exit(failures.isEmpty ? 0 : 1)
    }

    /// libdispatch opens one `timerfd` per clock the first time a timer on it is armed, and keeps it
    /// for the life of the process: arm one on every clock before the start is sampled, so that the
    /// runtime's own first use is not counted as a descriptor the session left open.
    static func warmRuntimeTimers() async {
        try? await Task.sleep(for: .milliseconds(50), clock: .continuous)
        try? await Task.sleep(for: .milliseconds(50), clock: .suspending)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(50)) { continuation.resume() }
            }
        }
    }

    /// The names of this process's threads (`comm`), sorted.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }.sorted()
    }

    /// The kernel's TCP and unix socket tables, for a report of sockets left open.
    static func socketTable() -> String {
        [
            "/proc/self/net/tcp", "/proc/self/net/tcp6", "/proc/self/net/udp", "/proc/self/net/udp6",
            "/proc/self/net/unix", "/proc/self/net/netlink", "/proc/self/net/raw",
        ].map { path in
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }.joined(separator: "\n")
    }

    static func worker(_ index: Int, seed: UInt64, setup: Setup, until deadline: ContinuousClock.Instant) async {
        var generator = ChaosRandom(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        // COURIER_CHAOS_ONLY=op,op narrows the mix, to find which operation a failure comes from.
        let only = ProcessInfo.processInfo.environment["COURIER_CHAOS_ONLY"].map {
            $0.split(separator: ",").map(String.init)
        }
        let mix = Operation.allCases.filter { only?.contains($0.rawValue) ?? true }
        let totalWeight = mix.reduce(0) { $0 + $1.weight }
        var sequence = 0
        while ContinuousClock.now < deadline && !Task.isCancelled {
            var pick = Int.random(in: 0..<totalWeight, using: &generator)
            let operation =
                mix.first { operation in
                    pick -= operation.weight
                    return pick < 0
                } ?? .getSmall
            // One in eight operations is cancelled at a random moment in its first 300 ms.
            let cancelAfter: Duration? =
                Int.random(in: 0..<8, using: &generator) == 0
                ? .microseconds(Int.random(in: 0...300_000, using: &generator)) : nil
            sequence += 1
            let name = "w\(index)-\(sequence)"
            await perform(operation, name: name, cancelAfter: cancelAfter, setup: setup, using: &generator)
        }
    }

    /// Starts a session task through `start`, enters it in the ledger, cancels it after
    /// `cancelAfter`, and returns its completion (the first, when there are more).
    static func completion<Value: Sendable>(
        _ what: String,
        ledger: ChaosLedger,
        cancelAfter: Duration?,
        _ start: (@escaping @Sendable (Value) -> Void) -> SessionTask
    ) async -> Value {
        let identifier = ledger.start(what)
        let slot = ChaosSlot<Value>()
        return await slot.wait {
            let task = start { value in
                ledger.complete(identifier, what)
                slot.deliver(value)
            }
            task.resume()
            if let cancelAfter {
                Task {
                    try? await Task.sleep(for: cancelAfter)
                    task.cancel()
                }
            }
        }
    }

    static func outcome(of error: SessionError?) -> String {
        guard let error else { return "ok" }
        switch error.kind {
        case .transport(let category): return "error.transport.\(category)"
        case .redirect(let failure): return "error.redirect.\(failure)"
        default: return "error.\(error.kind)"
        }
    }

    static func perform(
        _ operation: Operation,
        name: String,
        cancelAfter: Duration?,
        setup: Setup,
        using generator: inout ChaosRandom
    ) async {
        let session = setup.session
        let ledger = setup.ledger
        let what = "\(operation.rawValue) \(name)"
        func request(_ base: String, _ path: String, method: HTTPMethod = .get, body: Data? = nil) -> HTTPRequest? {
            guard let url = URL(string: base + path) else { return nil }
            var request = HTTPRequest(method: method, url: url, body: body.map { HTTPBody($0) } ?? .empty)
            // Shorter than the proxy's long stall, so that some stalls end in a timeout.
            request.timeout = .seconds(6)
            return request
        }
        func data(_ request: HTTPRequest) async -> DataResponse<Data> {
            await completion(what, ledger: ledger, cancelAfter: cancelAfter) { done in
                session.dataTask(with: request, serializer: DataResponseSerializer(), completion: done)
            }
        }
        /// Files a data response: a value must pass `check`, anything else must be a typed error.
        func file(_ response: DataResponse<Data>, check: (Data) -> String?) {
            if let error = response.error {
                ledger.file(
                    operation.rawValue,
                    outcome: outcome(of: error),
                    retries: response.retryCount,
                    detail: error.message
                )
            } else if let value = response.value {
                if let problem = check(value) {
                    ledger.file(operation.rawValue, outcome: "CORRUPT", retries: response.retryCount, detail: problem)
                } else {
                    ledger.file(operation.rawValue, outcome: "ok", retries: response.retryCount)
                }
            } else {
                ledger.file(operation.rawValue, outcome: "UNTYPED", detail: "neither a value nor an error")
            }
        }

        switch operation {
        case .getSmall:
            guard let request = request(setup.nginx, "/small") else { return }
            file(await data(request)) {
                $0 == Data(repeating: UInt8(ascii: "a"), count: 100) ? nil : "/small: \($0.count) bytes"
            }
        case .redirect:
            guard let request = request(setup.nginx, "/redirect") else { return }
            let response = await data(request)
            file(response) { body in
                guard body == Data(repeating: UInt8(ascii: "a"), count: 100) else {
                    return "/redirect: \(body.count) bytes"
                }
                return response.response?.url?.path == "/small"
                    ? nil : "/redirect ended at \(String(describing: response.response?.url))"
            }
        case .postEcho:
            let size = Int.random(in: 1...32_768, using: &generator)
            let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
            let body = Data((0..<size).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
            guard let request = request(setup.httpbin, "/anything", method: .post, body: body) else { return }
            file(await data(request)) { echoed in
                let object = (try? JSONSerialization.jsonObject(with: echoed)) as? [String: Any]
                guard let text = object?["data"] as? String else { return "/anything: no echoed data" }
                return Data(text.utf8) == body ? nil : "/anything echoed \(text.utf8.count) bytes for \(body.count)"
            }
        case .upload:
            let size = Int.random(in: 1...262_144, using: &generator)
            let body = Data(repeating: UInt8(ascii: "u"), count: size)
            guard let request = request(setup.nginx, "/upload", method: .post, body: body) else { return }
            file(await data(request)) { reply in
                String(decoding: reply, as: UTF8.self).hasPrefix("\(size)\n")
                    ? nil : "/upload counted \(String(decoding: reply, as: UTF8.self)) for \(size)"
            }
        case .retried:
            // The fault server's `/flaky` fails the first request of each id with a 503: one retry
            // at least, on top of what the proxy breaks.
            guard let request = request(setup.fault, "/flaky?id=\(name)-\(getpid())&failures=1") else { return }
            let response = await data(request)
            file(response) { body in
                String(decoding: body, as: UTF8.self).hasPrefix("attempt") && response.retryCount >= 1
                    ? nil : "/flaky: \(String(decoding: body, as: UTF8.self)) after \(response.retryCount) retries"
            }
        case .h2Fault:
            guard let url = URL(string: setup.faultH2 + "/rst-stream") else { return }
            var request = HTTPRequest(url: url)
            request.timeout = .seconds(6)
            file(await data(request)) { "/rst-stream succeeded with \($0.count) bytes" }
        case .stream:
            await stream(what: what, operation: operation, setup: setup, cancelAfter: cancelAfter)
        case .download:
            await download(name: name, what: what, setup: setup, cancelAfter: cancelAfter, using: &generator)
        }
    }

    /// A streamed body: read as it comes and hashed; a stream that ends without an error must be
    /// the whole file.
    static func stream(what: String, operation: Operation, setup: Setup, cancelAfter: Duration?) async {
        guard let url = URL(string: setup.nginx + "/text.txt") else { return }
        var request = HTTPRequest(url: url)
        request.timeout = .seconds(6)
        let ledger = setup.ledger
        let identifier = ledger.start(what)
        let session = setup.session
        let reading = Task { () -> (String, String?) in
            do throws(SessionError) {
                let stream = try await session.streamingResponse(for: request)
                var received = Data()
                var iterator = stream.body.makeAsyncIterator()
                while let chunk = try await iterator.next() { received.append(chunk) }
                guard stream.response.status.code == 200 else { return ("ok", nil) }
                return received == setup.text
                    ? ("ok", nil)
                    : (
                        "CORRUPT",
                        "streamed /text.txt: \(received.count) bytes, SHA-256 \(ChaosSHA256.hex(of: received))"
                    )
            } catch {
                return (outcome(of: error), error.message)
            }
        }
        if let cancelAfter {
            Task {
                try? await Task.sleep(for: cancelAfter)
                reading.cancel()
            }
        }
        let (result, detail) = await reading.value
        ledger.complete(identifier, what)
        ledger.file(operation.rawValue, outcome: result, detail: detail)
    }

    /// A resumable download: started, cancelled at a random point or broken by the proxy, and
    /// resumed from its resume data until it completes (at most 8 attempts); the file it completes
    /// with must be byte-identical to the server's.
    static func download(
        name: String,
        what: String,
        setup: Setup,
        cancelAfter: Duration?,
        using generator: inout ChaosRandom
    ) async {
        guard let url = URL(string: setup.nginx + "/" + ChaosGroup.blobName) else { return }
        let session = setup.session
        let ledger = setup.ledger
        let destination = setup.downloads + "/\(name).bin"
        let options = DownloadOptions(partialFilePath: setup.downloads + "/\(name).part")
        let choose: DownloadDestination.Choose = { _, _ in DownloadDestination(path: destination) }
        var request = HTTPRequest(url: url)
        request.timeout = .seconds(20)
        // The first attempt is always cancelled, at a random moment, so that the resume is exercised.
        var cancel: Duration? = cancelAfter ?? .milliseconds(Int.random(in: 1...400, using: &generator))
        var resumeData: ResumeData?
        var resumes = 0
        var previous = "none"
        defer {
            try? FileManager.default.removeItem(atPath: destination)
            try? FileManager.default.removeItem(atPath: options.partialFilePath ?? "")
        }
        for attempt in 0..<8 where attempt == 0 || ContinuousClock.now < setup.deadline {
            let attemptStart = ContinuousClock.now
            let response: DownloadResponse = await completion(
                "\(what) attempt \(attempt)",
                ledger: ledger,
                cancelAfter: cancel
            ) { done in
                if let resumeData {
                    session.downloadTask(
                        withResumeData: resumeData,
                        options: options,
                        destination: choose,
                        completion: done
                    )
                } else {
                    session.downloadTask(with: request, options: options, destination: choose, completion: done)
                }
            }
            if resumeData != nil { resumes += 1 }
            let cancelled = cancel
            cancel =
                Int.random(in: 0..<4, using: &generator) == 0
                ? .milliseconds(Int.random(in: 1...400, using: &generator)) : nil
            if let error = response.error {
                ledger.file(Operation.download.rawValue, outcome: outcome(of: error), detail: error.message)
                if error.kind == .transport(.resumeFailed) {
                    // A cancel that lands as the last bytes arrive leaves resume data for the whole
                    // file, which the server then refuses (416): counted, to be looked into.
                    ledger.note("resume-refused-after", detail: previous)
                }
                previous =
                    "\(outcome(of: error)) (\(error.message)) with resume data at \(response.resumeData.map { String($0.offset) } ?? "none"), cancel \(cancelled.map { "\($0)" } ?? "none"), ended after \(ContinuousClock.now - attemptStart), \(response.metrics.count) transfer(s), status \(response.response.map { String($0.status.code) } ?? "none")"
                // Without resume data (the head never came, or nothing can be resumed) start over;
                // so does a refused resume, as `courier download` does (a 416 keeps resume data).
                resumeData = error.kind == .transport(.resumeFailed) ? nil : response.resumeData
                continue
            }
            guard let path = response.filePath else {
                ledger.file(
                    Operation.download.rawValue,
                    outcome: "UNTYPED",
                    detail: "a download with neither a file nor an error"
                )
                ledger.fileDownload(identical: false, resumes: resumes)
                return
            }
            let identical = FileManager.default.contents(atPath: path) == setup.blob
            ledger.file(
                Operation.download.rawValue,
                outcome: identical ? "ok" : "CORRUPT",
                detail: identical
                    ? nil
                    : "\(name): SHA-256 \(ChaosSHA256.hex(ofFile: path) ?? "unreadable") (the server's \(setup.blobDigest)) after \(resumes) resumes"
            )
            ledger.fileDownload(identical: identical, resumes: resumes)
            return
        }
        ledger.fileDownload(identical: nil, resumes: resumes)
    }
}

/// SplitMix64: the workers' choices come from the run's seed, so that a seed names a mix.
struct ChaosRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
