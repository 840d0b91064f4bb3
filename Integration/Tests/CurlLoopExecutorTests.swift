import CourierCurl
import CourierHTTP
import CourierLocking
import CourierTransport
import Foundation
import Synchronization
import Testing

/// Threads (`pthread_self()`) seen by a consumer, collected across tasks.
final class ThreadLog: Sendable {
    private let ids = Lock<Set<UInt>>([])

    func note() { ids.withLock { _ = $0.insert(UInt(pthread_self())) } }
    var seen: Set<UInt> { ids.withLock { $0 } }
}

/// A flag set and read from different tasks.
final class SharedFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set(_ newValue: Bool) { value.store(newValue, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// `CurlTransport.executor`: tasks that prefer it run on the loop thread, transfers behave as on
/// the cooperative pool, and a shut-down or unstartable transport still runs them elsewhere.
@Suite struct CurlLoopExecutorTests {
    /// Reads every event of a GET of `url`, noting the thread after each event; the status, or 0.
    static func fetch(_ url: URL, on transport: CurlTransport, log: ThreadLog) async -> (status: Int, bytes: Int) {
        var status = 0
        var bytes = 0
        log.note()
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            log.note()
            switch event {
            case .response(let response): status = response.status.code
            case .body(let chunk): bytes += chunk.count
            case .failed: status = 0
            default: break
            }
        }
        return (status, bytes)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func runsPreferringTasksAndTheirChildrenOnTheLoopThread() async throws {
        let url = try #require(CurlTestServers.http).adding("/small")
        let transport = CurlTestServers.transport()
        let log = ThreadLog()
        let statuses = await withTaskExecutorPreference(transport.executor) {
            await withTaskGroup(of: Int.self, returning: [Int].self) { group in
                for _ in 0..<16 {
                    group.addTask { await Self.fetch(url, on: transport, log: log).status }
                }
                var statuses: [Int] = []
                for await status in group { statuses.append(status) }
                log.note()
                return statuses
            }
        }
        #expect(statuses == Array(repeating: 200, count: 16))
        let loopThread = try #require(transport.loopThreadID)
        #expect(log.seen == [loopThread])
        await transport.shutdown()
    }

    /// The session layer reaches the loop through the transport protocol, never by casting to
    /// `CurlTransport`: the requirement answers with the same executor.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func offersTheLoopThroughTheTransportProtocol() async throws {
        let url = try #require(CurlTestServers.http).adding("/small")
        let concrete = CurlTestServers.transport()
        let transport: any HTTPTransport = concrete
        let log = ThreadLog()
        let status = await withTaskExecutorPreference(transport.executor) {
            await Self.fetch(url, on: concrete, log: log).status
        }
        #expect(status == 200)
        let loopThread = try #require(concrete.loopThreadID)
        #expect(log.seen == [loopThread])
        await transport.shutdown()
    }

    /// The control: without the preference the same consumer runs on the cooperative pool, so the
    /// check above can tell the two apart.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func runsOtherTasksOffTheLoopThread() async throws {
        let url = try #require(CurlTestServers.http).adding("/small")
        let transport = CurlTestServers.transport()
        let log = ThreadLog()
        #expect(await Self.fetch(url, on: transport, log: log).status == 200)
        let loopThread = try #require(transport.loopThreadID)
        #expect(!log.seen.contains(loopThread))
        await transport.shutdown()
    }

    /// A consumer on the loop thread still applies backpressure: libcurl is paused while it holds
    /// the high-water mark, and unpaused by its demand, with every byte arriving.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func streamsALargeBodyWithBackpressureOnTheLoopThread() async throws {
        let url = try #require(CurlTestServers.http).adding("/big-100m")
        let transport = CurlTestServers.transport()
        var options = TransferOptions()
        options.highWaterMark = 256 << 10
        options.lowWaterMark = 64 << 10
        let transfer = transport.startTransfer(HTTPRequest(url: url), options: options)
        let (received, largestBuffered, largestChunk, completed) = await withTaskExecutorPreference(
            transport.executor
        ) {
            var received = 0
            var largestBuffered = 0
            var largestChunk = 0
            var completed = false
            for await event in transfer.events {
                switch event {
                case .body(let chunk):
                    received += chunk.count
                    largestChunk = max(largestChunk, chunk.count)
                    largestBuffered = max(largestBuffered, transfer.events.bufferedBodyBytes)
                case .completed: completed = true
                default: break
                }
            }
            return (received, largestBuffered, largestChunk, completed)
        }
        #expect(completed)
        #expect(received == 104_857_600)
        #expect(largestBuffered <= (256 << 10) + largestChunk)
        await transport.shutdown()
    }

    /// Work hopped off the loop (the documented way to decode or compute) leaves the loop free: a
    /// second transfer on the loop completes while the first consumer's work still runs.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func workHoppedOffTheLoopDoesNotStallOtherTransfers() async throws {
        let url = try #require(CurlTestServers.http).adding("/small")
        let transport = CurlTestServers.transport()
        let heavyWorkStarted = SharedFlag()
        let heavyWorkEnded = SharedFlag()
        let otherFinishedDuringHeavyWork = await withTaskExecutorPreference(transport.executor) {
            async let heavy: Void = {
                _ = await Self.fetch(url, on: transport, log: ThreadLog())
                await withTaskExecutorPreference(globalConcurrentExecutor) {
                    heavyWorkStarted.set(true)
                    // CPU-bound work that never suspends, as a decoder's would be.
                    let end = ContinuousClock.now + .seconds(2)
                    while ContinuousClock.now < end {}
                    heavyWorkEnded.set(true)
                }
            }()
            while !heavyWorkStarted.isSet {
                try? await Task.sleep(for: .milliseconds(5))
            }
            let other = await Self.fetch(url, on: transport, log: ThreadLog())
            let endedFirst = heavyWorkEnded.isSet
            await heavy
            return other.status == 200 && !endedFirst
        }
        #expect(otherFinishedDuringHeavyWork)
        await transport.shutdown()
    }

    /// A task that prefers the loop outlives the transport's shutdown: its transfer fails with
    /// `shutDown`, and it goes on (on the global executor) to its end instead of hanging.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func tasksPreferringAStoppedLoopRunToTheirEnd() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let started = SharedFlag()
        let task = Task(executorPreference: transport.executor) { () -> [TransportError.Category?] in
            var categories: [TransportError.Category?] = []
            for path in ["/throttled/big-100m", "/small"] {
                var category: TransportError.Category?
                for await event in transport.startTransfer(HTTPRequest(url: base.adding(path))).events {
                    if case .response = event { started.set(true) }
                    if case .failed(let error) = event { category = error.category }
                }
                categories.append(category)
            }
            return categories
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        await transport.shutdown()
        #expect(await task.value == [.shutDown, .shutDown])
    }

    /// What a task on the loop awaits from the loop itself (a cookie operation, the shutdown) is
    /// answered in a later pass: neither waits on the thread it runs on.
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func awaitsTheLoopsOwnAnswersFromTheLoop() async throws {
        let url = try #require(CurlTestServers.http).adding("/small")
        let transport = CurlTestServers.transport()
        let log = ThreadLog()
        let (status, cookieCount) = try await withTaskExecutorPreference(transport.executor) {
            let status = await Self.fetch(url, on: transport, log: log).status
            try await transport.cookies.set("Set-Cookie: courier-loop=1; domain=127.0.0.1; path=/")
            let cookieCount = try await transport.cookies.all().count
            log.note()
            await transport.shutdown()
            return (status, cookieCount)
        }
        #expect(status == 200)
        #expect(cookieCount == 1)
        #expect(log.seen.count == 1)
    }

    /// A transport that could not start offers the global executor: preferring it changes nothing.
    @Test func anUnstartableTransportOffersTheGlobalExecutor() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 0
        let transport = CurlTransport(configuration: configuration)
        #expect(transport.loopThreadID == nil)
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        let category = await withTaskExecutorPreference(transport.executor) {
            var category: TransportError.Category?
            for await event in transport.startTransfer(HTTPRequest(url: url)).events {
                if case .failed(let error) = event { category = error.category }
            }
            return category
        }
        #expect(category == .configuration)
    }
}
