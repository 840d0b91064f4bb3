import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Synchronization

/// `CourierStress transfers URL_SMALL URL_BIG [COUNT]`: starts COUNT transfers (10,000 by default) on
/// one `CurlTransport`, 32 at a time: a third complete a small GET, a third are cancelled in the
/// middle of a large body, a third are cancelled before their first event; then shuts the transport
/// down and checks that the process's open descriptors are back to their count before the
/// transport. Under LeakSanitizer, a leak fails the process at exit.
///
/// `CourierStress planted-overflow` and `planted-leak` are the positive controls: a heap overflow for
/// AddressSanitizer and a lost allocation for LeakSanitizer, each of which must fail. (ThreadSanitizer's
/// planted race is the root package's `CourierLockCanary`, next to its canary on Courier's lock.)
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

func plantedOverflow() -> Int32 {
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
    defer { buffer.deallocate() }
    let index = CommandLine.arguments.count + 7  // 8 or more: past the end
    buffer[index] = 1
    return Int32(buffer[0])
}

/// Memory nothing points to any more at exit: LeakSanitizer must report it.
func plantedLeak() -> Int32 {
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    buffer.initialize(repeating: 1, count: 4096)
    return Int32(buffer[Int.random(in: 0..<4096)]) - 1
}

/// What the transfers came to, shared by the tasks that run them.
final class Outcomes: Sendable {
    let completed = Atomic<Int>(0)
    let failures = Atomic<Int>(0)

    init() {}
}

enum Fate: CaseIterable {
    case complete
    case cancelMidBody
    case cancelAtOnce
}

func stress(small: URL, big: URL, count: Int) async -> Int32 {
    // libdispatch opens its timer descriptor (a timerfd) the first time a timer is armed, at a moment
    // that depends on scheduling; a sleep arms one first, so that the count before and the count
    // after both include it and a difference is the transport's.
    try? await Task.sleep(for: .milliseconds(10))
    let before = openDescriptors()
    var configuration = CurlTransport.Configuration()
    configuration.proxy = .none
    let transport = CurlTransport(configuration: configuration)
    let outcomes = Outcomes()
    await withTaskGroup(of: Void.self) { group in
        var started = 0
        func startNext() {
            let fate = Fate.allCases[started % Fate.allCases.count]
            started += 1
            group.addTask {
                let transfer = transport.startTransfer(HTTPRequest(url: fate == .complete ? small : big))
                if fate == .cancelAtOnce { transfer.cancel() }
                var bodyBytes = 0
                for await event in transfer.events {
                    switch event {
                    case .body(let chunk):
                        bodyBytes += chunk.count
                        if fate == .cancelMidBody && bodyBytes >= 64 << 10 { transfer.cancel() }
                    case .completed:
                        if fate == .complete { outcomes.completed.add(1, ordering: .relaxed) }
                    case .failed(let error):
                        if error.category != .cancelled {
                            let earlier = outcomes.failures.add(1, ordering: .relaxed).oldValue
                            if earlier < 5 { print("stress: unexpected failure: \(error)") }
                        }
                    default: break
                    }
                }
            }
        }
        for _ in 0..<min(32, count) { startNext() }
        while await group.next() != nil {
            if started < count { startNext() }
        }
    }
    await transport.shutdown()
    let after = openDescriptors()
    let done = outcomes.completed.load(ordering: .relaxed)
    let failed = outcomes.failures.load(ordering: .relaxed)
    print(
        "stress transfers=\(count) completed=\(done) unexpected_failures=\(failed) fds_before=\(before) fds_after=\(after)"
    )
    return failed == 0 && after <= before && done == (count + 2) / 3 ? 0 : 1
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "planted-overflow":
    exit(plantedOverflow())
case "planted-leak":
    exit(plantedLeak())
case "transfers":
    guard arguments.count >= 4, let small = URL(string: arguments[2]), let big = URL(string: arguments[3]) else {
        print("usage: CourierStress transfers URL_SMALL URL_BIG [COUNT]")
        exit(2)
    }
    let count = arguments.count >= 5 ? Int(arguments[4]) ?? 10_000 : 10_000
    exit(await stress(small: small, big: big, count: count))
default:
    print(
        "usage: CourierStress transfers URL_SMALL URL_BIG [COUNT] | planted-overflow | planted-leak"
    )
    exit(2)
}
