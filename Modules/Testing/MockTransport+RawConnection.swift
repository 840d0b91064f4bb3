public import CourierHTTP
internal import CourierLocking
public import CourierTransport
internal import FoundationEssentials

/// The raw connections a ``MockTransport`` hands out, and the requests it was asked for.
struct RawConnectionStubs: Sendable {
    var stubs = StubList<Result<MockRawConnection, TransportError>>()
    var requests: [HTTPRequest] = []
}

extension MockTransport {
    /// Hands `connection` to `openRawConnection` calls for `url` (compared as absolute strings);
    /// later stubs win over earlier ones.
    ///
    /// ```swift
    /// let connection = MockRawConnection(delivering: Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8))
    /// transport.stubRawConnection(url: "http://127.0.0.1/chat", connection)
    /// ```
    /// - Parameters:
    ///   - url: The URL the connection is for.
    ///   - connection: The scripted connection.
    ///   - times: How many opens the stub answers; `nil` for every one.
    public func stubRawConnection(url: String, _ connection: MockRawConnection, times: Int? = nil) {
        rawConnections.withLock {
            $0.stubs.append(matching: { $0.url.absoluteString == url }, times: times, respond: .success(connection))
        }
    }

    /// Makes `openRawConnection` calls for `url` fail with `failure` (a refused connection, an
    /// untrusted server).
    ///
    /// ```swift
    /// transport.stubRawConnection(url: "https://127.0.0.1/chat", failure: TransportError(category: .serverTrustFailed, message: "pin"))
    /// ```
    /// - Parameters:
    ///   - url: The URL the connection is for.
    ///   - failure: The error the open throws.
    ///   - times: How many opens the stub answers; `nil` for every one.
    public func stubRawConnection(url: String, failure: TransportError, times: Int? = nil) {
        rawConnections.withLock {
            $0.stubs.append(matching: { $0.url.absoluteString == url }, times: times, respond: .failure(failure))
        }
    }

    /// The requests `openRawConnection` was called with, in order.
    ///
    /// ```swift
    /// #expect(transport.rawConnectionRequests.map(\.url.absoluteString) == ["http://127.0.0.1/chat"])
    /// ```
    public var rawConnectionRequests: [HTTPRequest] { rawConnections.withLock { $0.requests } }

    /// The stubbed connection for `request`; without a stub, fails with `TransportError` of
    /// category `.other` naming the request, as an unstubbed transfer does.
    ///
    /// ```swift
    /// let connection = try await transport.openRawConnection(to: request, options: RawConnectionOptions())
    /// ```
    /// - Parameters:
    ///   - request: Whose stub to use.
    ///   - options: Unused: a scripted connection buffers nothing.
    /// - Returns: The stubbed ``MockRawConnection``.
    /// - Throws: The stubbed failure, or the missing-stub error.
    public func openRawConnection(
        to request: HTTPRequest,
        options: RawConnectionOptions
    ) async throws -> any RawConnection {
        let answer = rawConnections.withLock { stubs in
            stubs.requests.append(request)
            return stubs.stubs.take(for: request)
        }
        guard let answer else {
            throw TransportError(
                category: .other,
                message: "MockTransport has no raw connection stubbed for \(request.url.absoluteString)",
                url: request.url
            )
        }
        return try answer.get()
    }
}
