import CourierLocking
import Foundation
import Synchronization

/// `CourierLockCanary correct`: correct code on the two primitives Courier shares state through.
/// Four threads count and sum under one `Lock` (the count inside it, as Courier keeps its state; the
/// sum in the ledger beside it), and a plain value is published through an `Atomic` with release and
/// acquire. `ci/sanitize thread` runs it under ThreadSanitizer with `-DCOURIER_TSAN_LOCK`: a report
/// here means TSan cannot see the lock or the atomic, and its reports about Courier mean nothing.
///
/// `CourierLockCanary planted-race`: the same ledger, its sum touched without the lock: the
/// positive control, which TSan must report.
///
/// An executable of the root package rather than of `Integration/Sanitize`, because `Lock` is
/// package API and package access does not cross packages; it is compiled with everything (so it
/// cannot rot) and run only by `ci/sanitize`.
final class Ledger: @unchecked Sendable {  // unchecked: `sum` is guarded by `rounds` by convention only
    /// How many rounds the threads have added, inside the lock that also guards `sum`.
    let rounds = Lock(0)
    /// What the threads added: touched only under `rounds`, except by the planted race.
    var sum = 0

    init() {}
}

let threadCount = 4
let roundsPerThread = 10_000

func correct() -> Int32 {
    let ledger = Ledger()
    for index in 1...threadCount {
        Thread {
            for _ in 0..<roundsPerThread {
                ledger.rounds.withLock { rounds in
                    rounds += 1
                    ledger.sum += index
                }
            }
        }.start()
    }
    while ledger.rounds.withLock({ $0 }) < threadCount * roundsPerThread { Thread.sleep(forTimeInterval: 0.01) }
    let sum = ledger.rounds.withLock { _ in ledger.sum }
    let expected = roundsPerThread * threadCount * (threadCount + 1) / 2
    guard sum == expected else {
        print("lock canary: sum \(sum), expected \(expected)")
        return 1
    }
    return publishThroughAtomic()
}

/// A plain value handed from one thread to another by a release store and an acquire load: correct,
/// and visible to TSan only if the atomic operations are instrumented, which they are when compiled
/// inline into this module (Synchronization's `Atomic` is).
final class Publication: @unchecked Sendable {  // unchecked: `payload` is published through `ready`
    var payload = 0
    let ready = Atomic(false)

    init() {}
}

func publishThroughAtomic() -> Int32 {
    let publication = Publication()
    Thread {
        publication.payload = 42
        publication.ready.store(true, ordering: .releasing)
    }.start()
    while !publication.ready.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
    guard publication.payload == 42 else {
        print("lock canary: payload \(publication.payload), expected 42")
        return 1
    }
    return 0
}

func plantedRace() -> Int32 {
    let ledger = Ledger()
    for index in 1...threadCount {
        Thread {
            for _ in 0..<roundsPerThread { ledger.sum += index }
        }.start()
    }
    Thread.sleep(forTimeInterval: 0.5)
    return ledger.sum > 0 ? 0 : 1
}

switch CommandLine.arguments.dropFirst().first {
case "correct":
    exit(correct())
case "planted-race":
    exit(plantedRace())
default:
    print("usage: CourierLockCanary correct | planted-race")
    exit(2)
}
