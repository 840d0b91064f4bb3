/// A byte stream the transport opened to a server, with everything a transfer's connection gets:
/// the same proxy, TLS settings, trust policy, client identity and connect timeout.
///
/// Nothing is written or read for the caller: no request, no framing. The stream is what a protocol
/// that takes over a connection (WebSocket after its opening handshake, RFC 6455 §4) is built on.
/// Over TLS the server is offered `http/1.1` only in ALPN, so a request written by hand is
/// answered in HTTP/1.1.
///
/// ```swift
/// let connection = try await transport.openRawConnection(to: HTTPRequest(url: url), options: RawConnectionOptions())
/// try await connection.write(Array("GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n".utf8))
/// while let bytes = try await connection.read() { received += bytes }
/// await connection.close()
/// ```
///
/// - Important: One reader at a time: a ``read()`` while another is pending fails with
///   `TransportError.Category.alreadyConsumed`. Writes may come from several tasks; they go out
///   whole, one after the other, in the order they reached the transport. Cancelling a task
///   suspended in ``read()`` or ``write(_:)`` closes the connection, since the stream's position is
///   then unknown.
public protocol RawConnection: Sendable {
    /// The next bytes received, or `nil` once the server ended the stream cleanly.
    ///
    /// Suspends while nothing has arrived. Bytes are read from the socket only while fewer than
    /// the options' ``RawConnectionOptions/readHighWaterMark`` wait to be read, so a slow reader
    /// holds the server back (TCP's flow control) instead of filling memory.
    ///
    /// ```swift
    /// while let bytes = try await connection.read() { parser.feed(bytes) }
    /// ```
    /// - Returns: At least one byte, or `nil` at the end of the stream (and at every later call).
    /// - Throws: `TransportError`: `connectionLost` when the connection broke, `cancelled` after
    ///   ``close()``, `shutDown` after the transport was shut down, `alreadyConsumed` while another
    ///   read is pending.
    func read() async throws -> [UInt8]?

    /// Sends `bytes` and returns once all of them were handed to the socket.
    ///
    /// Suspends while the socket is full (the server does not read), so a writer cannot buffer
    /// without bound.
    ///
    /// ```swift
    /// try await connection.write(Array("ping".utf8))
    /// ```
    /// - Parameter bytes: The bytes to send, as they go on the wire (TLS encrypts them).
    /// - Throws: `TransportError`: `connectionLost` when the connection broke, `cancelled` after
    ///   ``close()``, `shutDown` after the transport was shut down.
    func write(_ bytes: [UInt8]) async throws

    /// Closes the connection; pending and later reads and writes fail with
    /// `TransportError.Category.cancelled`. Calling it again does nothing.
    ///
    /// ```swift
    /// await connection.close()
    /// ```
    func close() async
}

/// How a raw connection buffers what it receives.
///
/// ```swift
/// var options = RawConnectionOptions()
/// options.readHighWaterMark = 64 << 10
/// let connection = try await transport.openRawConnection(to: request, options: options)
/// ```
public struct RawConnectionOptions: Sendable, Hashable {
    /// The received bytes a connection keeps for its reader before it stops reading the socket;
    /// reading resumes once the reader has taken them below half of it. At least 1.
    public var readHighWaterMark: Int

    /// Creates options.
    ///
    /// ```swift
    /// let options = RawConnectionOptions(readHighWaterMark: 1 << 20)
    /// ```
    /// - Parameter readHighWaterMark: The received bytes kept for the reader; 256 KiB by default.
    public init(readHighWaterMark: Int = 256 << 10) {
        self.readHighWaterMark = max(1, readHighWaterMark)
    }
}
