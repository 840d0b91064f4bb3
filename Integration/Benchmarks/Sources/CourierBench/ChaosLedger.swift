import Foundation
import Synchronization

/// The chaos soak's book of every task it started: each must complete exactly once. A completion
/// for a task that already completed is a doubled completion; a task still open when the run ends
/// is a lost one.
final class ChaosLedger: Sendable {
    struct Book: Sendable {
        var nextIdentifier = 0
        var started = 0
        var completed = 0
        /// Open tasks: what each is, by identifier.
        var open: [Int: String] = [:]
        var doubled: [String] = []
        /// Completions by outcome: `ok`, `error.<kind>`, and the failures of the run
        /// (`CORRUPT`, `UNTYPED`).
        var outcomes: [String: Int] = [:]
        var byOperation: [String: Int] = [:]
        var retries = 0
        var downloadsIdentical = 0
        var downloadsCorrupted = 0
        var downloadsGivenUp = 0
        var resumes = 0
        var corrupted: [String] = []
        /// The first message of each kind of error or note, for the report.
        var examples: [String: String] = [:]
        /// Things worth knowing that are not completions, by kind.
        var notes: [String: Int] = [:]
    }

    let book = Mutex(Book())

    /// Opens a task; the identifier goes to ``complete(_:)``.
    func start(_ what: String) -> Int {
        book.withLock { book in
            let identifier = book.nextIdentifier
            book.nextIdentifier += 1
            book.started += 1
            book.open[identifier] = what
            return identifier
        }
    }

    /// Closes a task, or files a doubled completion when it was closed already.
    func complete(_ identifier: Int, _ what: String) {
        book.withLock { book in
            if book.open.removeValue(forKey: identifier) == nil {
                book.doubled.append("\(what) #\(identifier)")
            } else {
                book.completed += 1
            }
        }
    }

    /// Files how one operation ended (its tasks are already in the book).
    func file(_ operation: String, outcome: String, retries: Int = 0, detail: String? = nil) {
        book.withLock { book in
            if let detail, book.examples[outcome] == nil { book.examples[outcome] = "\(operation): \(detail)" }
            book.outcomes[outcome, default: 0] += 1
            book.byOperation[operation, default: 0] += 1
            book.retries += retries
            if outcome == "CORRUPT" || outcome == "UNTYPED" {
                book.corrupted.append("\(operation): \(detail ?? outcome)")
            }
        }
    }

    /// Files an observation that is not a completion, with the first detail of its kind.
    func note(_ kind: String, detail: String) {
        book.withLock { book in
            book.notes[kind, default: 0] += 1
            if book.examples[kind] == nil { book.examples[kind] = detail }
        }
    }

    func fileDownload(identical: Bool?, resumes: Int) {
        book.withLock { book in
            book.resumes += resumes
            switch identical {
            case true?: book.downloadsIdentical += 1
            case false?: book.downloadsCorrupted += 1
            case nil: book.downloadsGivenUp += 1
            }
        }
    }

    var snapshot: Book { book.withLock { $0 } }
}

/// Hands a completion handler's value to one waiting caller, once: the ledger sees every call, the
/// caller only the first, so a doubled completion is counted instead of crashing the run.
final class ChaosSlot<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func wait(_ start: () -> Void) async -> Value {
        await withCheckedContinuation { continuation in
            self.continuation.withLock { $0 = continuation }
            start()
        }
    }

    func deliver(_ value: Value) {
        continuation.withLock { slot in
            let waiting = slot
            slot = nil
            return waiting
        }?.resume(returning: value)
    }
}
