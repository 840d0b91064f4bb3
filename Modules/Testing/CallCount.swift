/// How many requests a verification expects: exactly, at least or at most a number.
///
/// An integer literal means exactly that many.
///
/// ```swift
/// transport.verify(.method(.post), called: 2)
/// transport.verify(.path("/v1/me"), called: .atLeast(1))
/// transport.verify(.method(.delete), called: .never)
/// ```
public enum CallCount: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)

    /// None at all.
    public static let never = CallCount.exactly(0)
    /// Exactly one.
    public static let once = CallCount.exactly(1)

    /// Exactly `value`.
    ///
    /// ```swift
    /// let count: CallCount = 3  // .exactly(3)
    /// ```
    /// - Parameter value: The number.
    public init(integerLiteral value: Int) {
        self = .exactly(value)
    }

    /// Whether `count` satisfies the expectation.
    ///
    /// ```swift
    /// CallCount.atLeast(1).accepts(2)  // true
    /// ```
    /// - Parameter count: The number of matching requests.
    /// - Returns: `true` when it does.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .atMost(let maximum): count <= maximum
        }
    }

    /// The number the expectation names.
    var number: Int {
        switch self {
        case .exactly(let number), .atLeast(let number), .atMost(let number): number
        }
    }

    /// `exactly 2`, `at least 1`, `at most 3`.
    public var description: String {
        switch self {
        case .exactly(let expected): "exactly \(expected)"
        case .atLeast(let minimum): "at least \(minimum)"
        case .atMost(let maximum): "at most \(maximum)"
        }
    }
}
