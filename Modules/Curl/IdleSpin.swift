/// Whether the loop, left with no transfer after waking their consumers, waits a moment for the next
/// command before it blocks in its poll.
///
/// A consumer that reads a response and sends the next request (a client going one request at a
/// time) posts its command a few microseconds after the loop woke it. When the loop has blocked by
/// then, the command costs a wake-up through the loop's eventfd (a write) and a sleep and
/// wake of the loop thread; on a virtual machine a wake-up of an idle CPU is the most expensive part
/// of the round trip. Checking the inbox for ``budget`` first saves both when the command comes in
/// time, and costs at most the budget when it does not.
///
/// The spins adapt: each one that sees no command lowers a credit by two, each that does raises it
/// by one, and with no credit left the loop blocks at once, probing again every
/// ``probeInterval``th time. A loop whose consumers take longer, or that serves occasional requests,
/// soon stops spinning; one with other transfers running never spins (it has work to do, and
/// its poll returns for it at once). Loop thread only.
struct IdleSpin {
    /// How long the loop checks its inbox before blocking.
    static let budget = Duration.microseconds(50)
    static let maximumCredit = 8
    /// With no credit, one idle moment in this many spins anyway, to notice consumers that sped up.
    static let probeInterval = 64

    private(set) var credit = maximumCredit
    private var idleWithoutSpin = 0

    /// Whether to spin this time.
    mutating func shouldSpin() -> Bool {
        if credit > 0 { return true }
        idleWithoutSpin += 1
        guard idleWithoutSpin >= Self.probeInterval else { return false }
        idleWithoutSpin = 0
        return true
    }

    /// Records how a spin ended.
    mutating func record(commandArrived: Bool) {
        credit = commandArrived ? min(credit + 1, Self.maximumCredit) : max(credit - 2, 0)
    }
}
