/// The messages a ``WebSocketConnection`` receives, as an asynchronous sequence.
///
/// A connection supplies the closure that reads the next message; iterate from one task at a time.
///
/// ```swift
/// for try await message in socket.messages {
///     print(message.payload.count)
/// }
/// ```
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// The element: one whole message.
    public typealias Element = WebSocketMessage
    /// The failure: how the connection failed.
    public typealias Failure = WebSocketError

    private let next: @Sendable () async throws(WebSocketError) -> WebSocketMessage?

    /// Creates the sequence over a connection's reader.
    ///
    /// ```swift
    /// let messages = WebSocketMessages { try await reader.nextMessage() }
    /// ```
    /// - Parameter next: Returns the next message, `nil` after the closing handshake, or throws
    ///   when the connection failed.
    public init(next: @escaping @Sendable () async throws(WebSocketError) -> WebSocketMessage?) {
        self.next = next
    }

    /// Makes an iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(next: next)
    }

    /// Reads the messages one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let next: @Sendable () async throws(WebSocketError) -> WebSocketMessage?

        /// The next message, or `nil` after the closing handshake.
        public mutating func next() async throws(WebSocketError) -> WebSocketMessage? {
            try await next()
        }

        /// The next message, or `nil` after the closing handshake.
        ///
        /// - Parameter actor: The caller's isolation (unused: the reader is `Sendable`).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(WebSocketError)
            -> WebSocketMessage?
        {
            try await next()
        }
    }
}
