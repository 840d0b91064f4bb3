public import CourierTesting
public import FoundationEssentials
public import Testing

extension MockSession {
    /// A session double that fails the running test for every call that matches no stub.
    ///
    /// The call still fails with the double's typed error, so the code under test sees what it
    /// would see from any `MockSession`; the issue makes sure a missing stub cannot pass unnoticed,
    /// even when the code under test swallows the error.
    ///
    /// ```swift
    /// let session = MockSession.failingTestOnUnstubbedCall(baseURL: URL(string: "https://api.example.com/v1"))
    /// session.stub(url: "me", json: #"{"id":1,"name":"Ada"}"#)
    /// ```
    /// - Parameters:
    ///   - baseURL: The base URL the calls and the stubs' relative URLs resolve against.
    ///   - sourceLocation: Where the issue is reported; where the session is made by default.
    /// - Returns: A session with no stubs.
    public static func failingTestOnUnstubbedCall(
        baseURL: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MockSession {
        let session = MockSession(baseURL: baseURL)
        session.onUnstubbedCall { request in
            Issue.record(Comment(rawValue: "MockSession has no stub for \(request)"), sourceLocation: sourceLocation)
        }
        return session
    }
}
