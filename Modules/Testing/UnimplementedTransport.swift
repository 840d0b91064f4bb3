public import CourierHTTP
public import CourierTransport

/// A transport that must never be used: every transfer fails at once and is recorded.
///
/// Give it to code under test that must not touch the network, then assert that nothing was sent.
///
/// ```swift
/// let transport = UnimplementedTransport()
/// try await cache.load(url)          // must be served from cache
/// #expect(transport.attempts.isEmpty)
/// ```
public final class UnimplementedTransport: HTTPTransport {
    private let recorder = MockTransport()

    /// Creates the transport.
    public init() {}

    /// Every request that was attempted.
    public var attempts: [HTTPRequest] { recorder.startedRequests }

    /// Fails the transfer with a `.configuration` error naming the request.
    public func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        recorder.stub(
            matching: { _ in true },
            reply: MockTransport.Reply(
                error: TransportError(
                    category: .configuration,
                    message: "UnimplementedTransport received \(request)",
                    url: request.url
                )
            )
        )
        return recorder.startTransfer(request, options: options)
    }
}
