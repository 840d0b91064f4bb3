/// Consumer wake-ups the loop holds back while a response body streams in faster than its consumer
/// needs to be told, so that a fast download wakes its consumer once per half a high-water mark of
/// body rather than once per read of the socket.
///
/// Waking a parked consumer is a futex wake of a cooperative-pool thread (an inter-processor
/// interrupt, dear under a hypervisor) and a context switch there and back. A 100 MiB download
/// over loopback woke its consumer about 380 times, and the wake-ups and switches were about a
/// third of its CPU time in a profile (`perf record -a -g`): more than the copy of the bytes.
///
/// The rules, all on the loop thread:
/// - A hold starts at the end of a pass that gathered ``minimumPassBytes`` or more for a transfer
///   whose consumer is parked: the body arrives faster than one read a pass. Its gathered chunks
///   then stay gathered instead of going out at the pass's end.
/// - While it holds, a full gathering buffer still goes out as an event; the wake-up that event
///   would cause is kept in the hold.
/// - It ends (the gathered bytes go out and the consumer is resumed with the pass's other wake-ups)
///   once the body held for the consumer reaches half its high-water mark, ``maximumHold`` after
///   it started, at any event of the transfer other than a body chunk (progress, a head, the end),
///   and when the transfer ends or its consumer leaves.
///
/// So a stream that brings less than ``minimumPassBytes`` a pass (server-sent events, NDJSON, a
/// slow network) is never held, and a fast one that stalls reaches its consumer at most
/// ``maximumHold`` late. Backpressure is unchanged: the held bytes are buffered or gathered, and
/// both count against the high-water mark, which is twice the release point.
///
/// Generic over the held transfer and its wake-up so that the rules are tested without a loop.
struct ConsumerWakeHolds<Subject, WakeUp> {
    struct Hold {
        let transferID: Int
        let subject: Subject
        let deadline: ContinuousClock.Instant
        var wakeUp: WakeUp?
    }

    /// Body bytes gathered in one pass from which a transfer counts as fast enough to hold.
    static var minimumPassBytes: Int { 64 << 10 }

    /// The longest a consumer's wake-up is held; the loop's poll waits in whole milliseconds.
    static var maximumHold: Duration { .milliseconds(1) }

    /// Whether a pass that gathered `gatheredBytes` for a transfer with a parked consumer starts a
    /// hold.
    static func startsHold(gatheredBytes: Int, consumerParked: @autoclosure () -> Bool) -> Bool {
        gatheredBytes >= minimumPassBytes && consumerParked()
    }

    /// Whether a hold ends now: enough body waits for the consumer, or it has held long enough.
    static func isDue(
        heldBytes: Int,
        highWaterMark: Int,
        deadline: ContinuousClock.Instant,
        now: ContinuousClock.Instant
    ) -> Bool {
        heldBytes >= highWaterMark / 2 || now >= deadline
    }

    private var holds: [Hold] = []

    var isEmpty: Bool { holds.isEmpty }

    var count: Int { holds.count }

    /// When the earliest hold must end, for the loop's poll timeout.
    var earliestDeadline: ContinuousClock.Instant? { holds.lazy.map(\.deadline).min() }

    func isHolding(_ transferID: Int) -> Bool {
        holds.contains { $0.transferID == transferID }
    }

    /// Starts holding `transferID`'s wake-ups until ``maximumHold`` after `now` at the latest.
    mutating func start(_ transferID: Int, subject: Subject, now: ContinuousClock.Instant) {
        guard !isHolding(transferID) else { return }
        holds.append(Hold(transferID: transferID, subject: subject, deadline: now + Self.maximumHold, wakeUp: nil))
    }

    /// Keeps `wakeUp` in `transferID`'s hold; `false` (and nothing kept) when it has none. A parked
    /// consumer is handed one event, so a hold keeps at most one wake-up.
    mutating func keep(_ wakeUp: WakeUp, for transferID: Int) -> Bool {
        guard let index = holds.firstIndex(where: { $0.transferID == transferID }) else { return false }
        holds[index].wakeUp = wakeUp
        return true
    }

    /// Ends `transferID`'s hold and returns it, or `nil` when it had none.
    mutating func end(_ transferID: Int) -> Hold? {
        guard let index = holds.firstIndex(where: { $0.transferID == transferID }) else { return nil }
        return holds.remove(at: index)
    }

    /// Ends the holds `isDue` picks and appends them to `ended`: out of the table before the caller
    /// releases them, as releasing yields the transfers' events, which must not be held again.
    mutating func endHolds(where isDue: (Hold) -> Bool, into ended: inout [Hold]) {
        var index = holds.count
        while index > 0 {
            index -= 1
            guard isDue(holds[index]) else { continue }
            ended.append(holds.remove(at: index))
        }
    }

    /// Ends every hold (the loop is stopping), appending each to `ended`.
    mutating func endAll(into ended: inout [Hold]) {
        ended.append(contentsOf: holds)
        holds.removeAll()
    }
}
