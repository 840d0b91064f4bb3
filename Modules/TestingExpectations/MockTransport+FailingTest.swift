public import CourierTesting
public import Testing

extension MockTransport {
    /// A mock transport that fails the running test for every request that matches no stub.
    ///
    /// The request still fails with the transport's typed error, so the code under test sees what
    /// it would see from any mock; the issue makes sure a missing stub cannot pass unnoticed, even
    /// when the code under test swallows the error.
    ///
    /// ```swift
    /// let transport = MockTransport.failingTestOnUnstubbedRequest()
    /// transport.stub(url: "https://api.example.com/v1/me", json: #"{"name":"Ada"}"#)
    /// ```
    /// - Parameter sourceLocation: Where the issue is reported; where the transport is made by default.
    /// - Returns: A transport with no stubs.
    public static func failingTestOnUnstubbedRequest(
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MockTransport {
        let transport = MockTransport()
        transport.onUnstubbedRequest { request in
            Issue.record(Comment(rawValue: "MockTransport has no stub for \(request)"), sourceLocation: sourceLocation)
        }
        return transport
    }
}
