public import CourierHTTP
internal import CourierLocking
public import CourierTransport

/// A transport that must never be used: every transfer fails at once and is recorded.
///
/// Give it to code under test that must not touch the network, then assert that nothing was sent.
/// The failure comes before any body byte is read, so even a one-shot body stays unread.
///
/// ```swift
/// let transport = UnimplementedTransport()
/// try await cache.load(url)          // must be served from cache
/// #expect(transport.attempts.isEmpty)
/// ```
public final class UnimplementedTransport: HTTPTransport {
    private let recorded = Lock<[HTTPRequest]>([])
    private let onAttempt: (@Sendable (HTTPRequest) -> Void)?

    /// Creates the transport.
    ///
    /// ```swift
    /// let transport = UnimplementedTransport { request in print("unexpected \(request)") }
    /// ```
    /// `CourierTestingExpectations` passes a handler that fails the running test
    /// (`UnimplementedTransport.failingTest()`).
    /// - Parameter onAttempt: Called with every attempted request, before its transfer fails.
    public init(onAttempt: (@Sendable (HTTPRequest) -> Void)? = nil) {
        self.onAttempt = onAttempt
    }

    /// Every request that was attempted, in order.
    public var attempts: [HTTPRequest] { recorded.withLock { $0 } }

    /// Fails the transfer with a `.configuration` error naming the request, reading nothing.
    ///
    /// - Parameters:
    ///   - request: The request that should not have been sent.
    ///   - options: Ignored.
    /// - Returns: A transfer whose only event is the failure.
    public func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        recorded.withLock { $0.append(request) }
        onAttempt?(request)
        let (events, source) = TransferEvents.makeEvents(
            highWaterMark: options.highWaterMark,
            lowWaterMark: options.lowWaterMark
        )
        source.yield(
            .failed(
                TransportError(
                    category: .configuration,
                    message: "UnimplementedTransport received \(request)",
                    url: request.url
                )
            )
        )
        return HTTPTransfer(request: request, events: events, controller: NothingToControl())
    }

    /// Records the attempt and fails with a `.configuration` error naming the request.
    ///
    /// ```swift
    /// _ = try? await transport.openRawConnection(to: request, options: RawConnectionOptions())
    /// #expect(transport.attempts == [request])
    /// ```
    /// - Parameters:
    ///   - request: The request whose origin should not have been connected to.
    ///   - options: Ignored.
    /// - Returns: Never returns.
    /// - Throws: Always, `TransportError` of category `configuration`.
    public func openRawConnection(
        to request: HTTPRequest,
        options: RawConnectionOptions
    ) async throws -> any RawConnection {
        recorded.withLock { $0.append(request) }
        onAttempt?(request)
        throw TransportError(
            category: .configuration,
            message: "UnimplementedTransport received a raw connection for \(request)",
            url: request.url
        )
    }
}

/// The controls of a transfer that has already ended.
private struct NothingToControl: TransferControlling {
    func cancel() {}
    func suspend() {}
    func resume() {}
}
