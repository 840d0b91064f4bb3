import Courier
import CourierCurl
import CourierImageCache
import CourierImageDownloader
import CourierReachability
import CourierReachabilityNetlink
import CourierSessionEngine
import Foundation
import Synchronization

// A child process for the thread census test: starts what a running client starts, then lists the
// process's threads by name, so that the test can hold them against the threading article.
//
//   CourierThreadCensus URL
//
// URL is the loopback nginx (TEST_HTTP_URL). While everything below is still running, prints one
// line per distinct thread name, `thread=NAME count=N`, sorted by name. It runs apart from the test
// process because Swift Testing runs every suite's tests, and their threads, in one process.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Counts the events the session's event queue hands to an event monitor.
final class EventCount: EventMonitor {
    let count = Atomic(0)

    func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
        count.add(1, ordering: .relaxed)
    }
}

/// Waits for `operation`, or fails the census after `limit`: a census that hangs tells nothing.
func within<Value: Sendable>(
    _ limit: Duration,
    _ what: String,
    _ operation: @escaping @Sendable () async -> Value?
) async -> Value {
    let outcome = await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let outcome else { fail("\(what) did not happen within \(limit)") }
    return outcome
}

/// The names of the process's threads, as the kernel shows them (`comm`: at most 15 bytes).
func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else {
            return nil  // the thread ended between the listing and the read
        }
        return comm.trimmingCharacters(in: .newlines)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let base = URL(string: arguments[1]) else { fail("usage: CourierThreadCensus URL") }

// The reachability monitor's netlink thread, with its first evaluation delivered.
let monitor = NetlinkReachabilityMonitor(target: .defaultRoute)
let firstPath = monitor.paths()
monitor.startMonitoring()
_ = await within(.seconds(10), "a first reachability path") {
    for await path in firstPath { return path }
    return nil
}

// The client, with an event monitor and an event stream listening (the session's event queue), the
// network activity tracker's timers (short delays, so that they fire during the requests) and the
// reachability observation.
let tracker = NetworkActivityTracker(activationDelay: .milliseconds(1), completionDelay: .milliseconds(1)) { _ in }
let events = EventCount()
let client: CourierClient
do {
    client = try CourierClient(baseURL: base) { configuration in
        configuration.curl.proxy = .none
        configuration.eventMonitors = [events, NetworkActivityMonitor(tracker: tracker)]
    }
} catch {
    fail("no client: \(error)")
}
let session = client.session.session
let streamed = Atomic(0)
let listener = Task {
    for await _ in session.events() { streamed.add(1, ordering: .relaxed) }
}
session.observeReachability(of: monitor)

// Requests through the async API, a completion handler (the completion queue) and the image
// downloader (its callback queue).
for path in ["small", "small.json", "text.txt"] {
    do {
        _ = try await client.data(.get, path)
    } catch {
        fail("GET \(path) failed: \(error)")
    }
}
let handled: Int = await within(.seconds(30), "a data task's completion handler") {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
        session.dataTask(with: HTTPRequest(url: base.appendingPathComponent("small"))) { response in
            continuation.resume(returning: response.response?.status.code)
        }.resume()
    }
}
guard handled == 200 else { fail("the data task answered \(handled)") }
let downloader = ImageDownloader(session: session)
let width: Int = await within(.seconds(30), "an image download's callback") {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
        let request = HTTPRequest(url: base.appendingPathComponent("images/gradient.png"))
        downloader.download(request) { result in
            continuation.resume(returning: (try? result.get())?.image.width)
        }
    }
}
guard width == 37 else { fail("the image download gave a width of \(width)") }
// Let the tracker's completion timer and the last events go out before counting.
try? await Task.sleep(for: .milliseconds(200))
guard events.count.load(ordering: .relaxed) > 0, streamed.load(ordering: .relaxed) > 0 else {
    fail("no session event reached the monitor or the stream")
}

var counts: [String: Int] = [:]
for name in threadNames() { counts[name, default: 0] += 1 }
for (name, count) in counts.sorted(by: { $0.key < $1.key }) { print("thread=\(name) count=\(count)") }

await client.shutdown()
listener.cancel()
monitor.stopMonitoring()
