public import CourierTesting
public import Testing

extension MockTransport {
    /// Records an issue in the running test when the number of matching requests is wrong.
    ///
    /// The issue's message is `MockTransport.verify(_:called:)`'s: the expectation,
    /// then every recorded request with the reasons it does not match.
    ///
    /// ```swift
    /// transport.expect(.method(.post) && .path("/v1/items") && .body(json: #"{"name":"Ada"}"#), called: 1)
    /// transport.expect(.header("Authorization"), called: .never)
    /// ```
    /// - Parameters:
    ///   - matcher: The condition; every request when left out.
    ///   - count: How many matching requests are expected; at least one by default.
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

/// Records `message`, after `comment`, as an issue of the running test; `true` when there is none.
func recordIssue(_ message: String?, _ comment: Comment?, _ sourceLocation: SourceLocation) -> Bool {
    guard let message else { return true }
    let prefix = comment.map { "\($0.rawValue): " } ?? ""
    Issue.record(Comment(rawValue: prefix + message), sourceLocation: sourceLocation)
    return false
}
