internal import CourierLocking

/// Where the session layer reads chance: the jitter of retry delays.
///
/// ``SystemRandomSource`` is the default; ``SeededRandomSource`` repeats the same sequence for the
/// same seed, so that a test (or a simulation) sees the same delays every run.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.random = SeededRandomSource(seed: 42)
/// ```
public protocol RandomSource: Sendable {
    /// A number in `0..<1`, uniformly distributed.
    func nextUnitInterval() -> Double
}

/// The system's random generator.
///
/// ```swift
/// let fraction = SystemRandomSource().nextUnitInterval()
/// ```
public struct SystemRandomSource: RandomSource {
    /// The system's generator.
    public init() {}

    /// A number in `0..<1` from `SystemRandomNumberGenerator`.
    public func nextUnitInterval() -> Double { Double.random(in: 0..<1) }
}

/// A repeatable sequence: SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number
/// Generators", OOPSLA 2014) from a seed. Not for secrets.
///
/// ```swift
/// let first = SeededRandomSource(seed: 7), second = SeededRandomSource(seed: 7)
/// assert(first.nextUnitInterval() == second.nextUnitInterval())
/// ```
public final class SeededRandomSource: RandomSource {
    private let state: Lock<UInt64>

    /// A sequence that starts from `seed`.
    ///
    /// - Parameter seed: Any value; the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = Lock(seed)
    }

    /// The next number of the sequence, in `0..<1`.
    public func nextUnitInterval() -> Double {
        let bits = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        // The top 53 bits fill a Double's mantissa exactly.
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }
}
