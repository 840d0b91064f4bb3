import CCourierAllocationCounter
import CCourierCurl
import CourierCurl
import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation

// A child process for the allocation-budget test: counts the heap allocations a small GET costs.
//
//   CourierAllocationHelper URL REQUESTS pool|loop|session
//
// Runs REQUESTS sequential GETs of URL on one CurlTransport after a warm-up (the connection, the
// transfer template and the runtime's caches are made once, outside the count), consuming each
// transfer's events on the cooperative pool (`pool`) or on the transport's loop thread (`loop`),
// or as an application does through `HTTPSessionManager` with the data response serializer and
// the default `RetryPolicy` (`session`, the `ci/bench session` row's stack), and prints `allocations_per_request=A requests=N`. Every allocation of the process is counted,
// on every thread, libcurl's included (the counter replaces malloc; see allocation_counter.c).

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// One GET, its events read to the end; whether it answered 200 with a body.
func get(_ url: URL, on transport: CurlTransport) async -> Bool {
    var status = 0
    var bytes = 0
    for await event in transport.startTransfer(HTTPRequest(url: url)).events {
        switch event {
        case .response(let response): status = response.status.code
        case .body(let chunk): bytes += chunk.count
        default: break
        }
    }
    return status == 200 && bytes > 0
}

/// One GET through the session stack: serializer, task runner, validation, data serializer.
func get(_ url: URL, on api: HTTPSessionManager) async -> Bool {
    guard let response = try? await api.data(.get, url.absoluteString) else { return false }
    return response.response?.status.code == 200 && (response.value?.count ?? 0) > 0
}

/// `count` GETs one after another; false as soon as one fails.
func run(_ url: URL, count: Int, on transport: CurlTransport, via api: HTTPSessionManager?) async -> Bool {
    for _ in 0..<count {
        let ok = if let api { await get(url, on: api) } else { await get(url, on: transport) }
        if !ok { return false }
    }
    return true
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]), let requests = Int(arguments[2]), requests > 0,
    ["pool", "loop", "session"].contains(arguments[3])
else { fail("usage: CourierAllocationHelper URL REQUESTS pool|loop|session") }

// The counter must see the libraries' allocations, not only this file's: a libcurl handle is made
// and freed under it first.
let beforeHandle = courier_allocation_count()
curl_easy_cleanup(curl_easy_init())
guard courier_allocation_count() > beforeHandle else {
    fail("the allocation counter does not see libcurl's allocations (malloc was not replaced)")
}

/// The whole measurement: warm-up, the counted GETs, the figure line; exits the process.
func measureAndExit(_ url: URL, requests: Int, mode: String) async -> Never {
    var configuration = CurlTransport.Configuration()
    configuration.proxy = .none
    let transport = CurlTransport(configuration: configuration)
    let api =
        mode == "session"
        ? HTTPSessionManager(baseURL: nil, session: SessionManager(transport: transport, interceptor: RetryPolicy()))
        : nil
    let measure: @Sendable () async -> Int? = {
        guard await run(url, count: 100, on: transport, via: api) else { return nil }
        let before = courier_allocation_count()
        guard await run(url, count: requests, on: transport, via: api) else { return nil }
        return courier_allocation_count() - before
    }
    let counted =
        mode == "loop" ? await withTaskExecutorPreference(transport.executor, operation: measure) : await measure()
    await transport.shutdown()
    guard let counted else { fail("a request failed") }
    print("allocations_per_request=\(String(format: "%.1f", Double(counted) / Double(requests))) requests=\(requests)")
    exit(0)
}

// No top-level `await`: an async main parks the main thread in dispatch_main's sigsuspend, which
// valgrind 3.19 cannot run, and instruction counts under callgrind are this helper's other use.
let mode = arguments[3]
Task.detached { await measureAndExit(url, requests: requests, mode: mode) }
while true { sleep(60) }
