public import CourierTesting
public import Testing

extension MockSession {
    /// Records an issue in the running test when the number of matching calls is wrong.
    ///
    /// The issue's message is `MockSession.verify(_:called:)`'s: the expectation, then every
    /// call's request with the reasons it does not match.
    ///
    /// ```swift
    /// session.expect(.method(.put) && .path("/v1/me") && .body(json: #"{"name":"Grace"}"#), called: 1)
    /// ```
    /// - Parameters:
    ///   - matcher: The condition; every call when left out.
    ///   - count: How many matching calls are expected; at least one by default.
    ///   - comment: Words to put before the message.
    ///   - sourceLocation: Where the issue is reported; the call site by default.
    /// - Returns: `true` when the count was right.
    @discardableResult
    public func expect(
        _ matcher: RequestMatcher = .any,
        called count: CallCount = .atLeast(1),
        _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        recordIssue(verify(matcher, called: count), comment, sourceLocation)
    }
}
