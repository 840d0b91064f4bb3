import Foundation

/// SplitMix64: the one seeded generator of the randomised tests, so that a failing corpus replays
/// from the seed the test printed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// The seed of a randomised test: `COURIER_TEST_SEED` when set, otherwise a fresh one. Tests
    /// print it.
    public static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["COURIER_TEST_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 1...UInt64.max)
    }
}
