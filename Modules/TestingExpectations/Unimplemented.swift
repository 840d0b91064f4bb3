public import Testing

/// Fails the running test and returns `placeholder`: the body of a closure the test expects never
/// to be called, as swift-dependencies' `unimplemented`.
///
/// Use it for an app's own closure-based dependencies; the transport has
/// `UnimplementedTransport.failingTest()`.
///
/// ```swift
/// let client = ProfileStore(
///     transport: transport,
///     now: { unimplemented("ProfileStore.now", placeholder: Date.distantPast) }
/// )
/// ```
/// - Parameters:
///   - description: Names the dependency in the issue.
///   - placeholder: What the call returns, so that the code under test can go on.
///   - sourceLocation: Where the issue is reported; the call site by default.
/// - Returns: `placeholder`.
public func unimplemented<Value>(
    _ description: String,
    placeholder: Value,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Value {
    Issue.record(Comment(rawValue: "Unimplemented: \(description)"), sourceLocation: sourceLocation)
    return placeholder
}
