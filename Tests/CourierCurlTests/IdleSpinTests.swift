import Testing

@testable import CourierCurl

@Suite struct IdleSpinTests {
    @Test func aFreshLoopSpins() {
        var spin = IdleSpin()
        let spins = spin.shouldSpin()
        #expect(spins)
        #expect(spin.credit == IdleSpin.maximumCredit)
    }

    @Test func spinsThatSeeNoCommandStopTheSpinning() {
        var spin = IdleSpin()
        var misses = 0
        while spin.shouldSpin() {
            spin.record(commandArrived: false)
            misses += 1
            #expect(misses <= IdleSpin.maximumCredit, "the credit must run out")
        }
        #expect(misses == IdleSpin.maximumCredit / 2)
        #expect(spin.credit == 0)
    }

    @Test func withoutCreditTheLoopProbesOnceInAnInterval() {
        var spin = IdleSpin()
        while spin.shouldSpin() { spin.record(commandArrived: false) }
        var spins = 0
        for _ in 0..<(IdleSpin.probeInterval * 3 - 1) where spin.shouldSpin() {
            spins += 1
            spin.record(commandArrived: false)
        }
        #expect(spins == 3)
    }

    @Test func aProbeThatSeesACommandResumesTheSpinning() {
        var spin = IdleSpin()
        for _ in 0..<(IdleSpin.maximumCredit / 2) { spin.record(commandArrived: false) }
        #expect(spin.credit == 0)
        var skipped = 0
        for _ in 0..<(IdleSpin.probeInterval - 1) where !spin.shouldSpin() { skipped += 1 }
        #expect(skipped == IdleSpin.probeInterval - 1)
        let probes = spin.shouldSpin()
        #expect(probes)
        spin.record(commandArrived: true)
        #expect(spin.credit == 1)
        let spinsAgain = spin.shouldSpin()
        #expect(spinsAgain)
    }

    @Test func hitsRaiseTheCreditUpToItsMaximum() {
        var spin = IdleSpin()
        spin.record(commandArrived: false)
        #expect(spin.credit == IdleSpin.maximumCredit - 2)
        for _ in 0..<10 { spin.record(commandArrived: true) }
        #expect(spin.credit == IdleSpin.maximumCredit)
    }

    @Test func oneMissInThreeKeepsTheLoopSpinning() {
        // A consumer usually in time: two hits and a miss leave the credit where it was.
        var spin = IdleSpin()
        for _ in 0..<100 {
            let spins = spin.shouldSpin()
            #expect(spins)
            spin.record(commandArrived: true)
            spin.record(commandArrived: true)
            spin.record(commandArrived: false)
        }
    }
}
