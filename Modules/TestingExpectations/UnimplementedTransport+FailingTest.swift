public import CourierTesting
public import Testing

extension UnimplementedTransport {
    /// A transport that fails the running test on any use, as swift-dependencies' unimplemented
    /// dependencies do.
    ///
    /// Each attempt records an issue naming the request, then fails its transfer as
    /// `UnimplementedTransport` always does; so a path that must not reach the
    /// network fails the test even when the code under test swallows the transport's error.
    ///
    /// ```swift
    /// let store = ProfileStore(transport: UnimplementedTransport.failingTest())
    /// let profile = try await store.cachedProfile()  // must not send anything
    /// ```
    /// - Parameters:
    ///   - name: Names the dependency in the issue, such as `"ProfileStore.transport"`.
    ///   - sourceLocation: Where the issue is reported; where the transport is made by default.
    /// - Returns: The transport.
    public static func failingTest(
        _ name: String = "UnimplementedTransport",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> UnimplementedTransport {
        UnimplementedTransport { request in
            Issue.record(Comment(rawValue: "\(name) was used: \(request)"), sourceLocation: sourceLocation)
        }
    }
}
