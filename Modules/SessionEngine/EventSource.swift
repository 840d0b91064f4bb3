public import CourierHTTP
public import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// A Server-Sent Events stream: the events of a `text/event-stream` response as an async sequence,
/// reconnecting as the WHATWG EventSource does.
///
/// Each connection is a streamed session task (adapters, redirects and the retry policy apply up
/// to its head) with `Accept: text/event-stream`, `Cache-Control: no-cache` and, after the first
/// event with an id, `Last-Event-ID`. Events are parsed as they arrive and handed out one at a time:
/// a slow reader pauses the transfer instead of buffering. When the connection ends or drops
/// (timed out, refused, lost, name resolution), the sequence waits the reconnection time (the
/// stream's `retry`, else ``Configuration/reconnectionDelay``) and connects again; a `204` ends it;
/// any other status, a type other than `text/event-stream`, or an oversized line or event fails it.
/// Cancelling the reading task stops it. The reconnection wait is measured on the session's
/// ``SessionConfiguration/clock``, so a test with a `ManualClock` moves it by hand.
///
/// ```swift
/// for try await event in session.eventSource(for: HTTPRequest(url: URL(string: "https://api.example.com/events")!)) {
///     print(event.type, event.data)
/// }
/// ```
public struct EventSource: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent
    /// What ends the stream early.
    public typealias Failure = SessionError

    /// How the stream reconnects and what it accepts.
    public struct Configuration: Sendable, Hashable {
        /// The wait before reconnecting until the stream sets its own with `retry`; 3 seconds, a
        /// browser's usual choice.
        public var reconnectionDelay: Duration = .seconds(3)
        /// The most reconnections after a connection ended or dropped; `nil` for no limit.
        public var maximumReconnections: Int?
        /// The longest line accepted, in bytes; 64 KiB.
        public var maximumLineLength = 64 << 10
        /// The most data one event may carry, in bytes; 1 MiB.
        public var maximumEventSize = 1 << 20

        /// The defaults.
        ///
        /// ```swift
        /// var configuration = EventSource.Configuration()
        /// configuration.maximumReconnections = 5
        /// ```
        public init() {}
    }

    let session: SessionManager
    let request: HTTPRequest
    let configuration: Configuration

    /// Returns the iterator; each iterator opens its own connection.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }

    /// Reads the events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: EventSource
        private var parser: ServerSentEventParser
        private var body: ResponseBody.AsyncIterator?
        private var pending: [ServerSentEvent] = []
        private var reconnections = 0
        private var connectedOnce = false
        private var finished = false
        /// A broken limit, thrown once the events completed before it were read.
        private var limitFailure: SessionError?

        init(source: EventSource) {
            self.source = source
            parser = ServerSentEventParser(
                maximumLineLength: source.configuration.maximumLineLength,
                maximumEventSize: source.configuration.maximumEventSize
            )
        }

        /// The next event, or `nil` once the server ended the stream with a `204`, or the
        /// reconnection limit was reached.
        ///
        /// - Throws: `SessionError` when a connection failed for good or the reading task was
        ///   cancelled.
        public mutating func next() async throws(SessionError) -> ServerSentEvent? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                if let limitFailure {
                    self.limitFailure = nil
                    finished = true
                    throw limitFailure
                }
                if finished { return nil }
                if var current = body {
                    let chunk: Data?
                    do {
                        chunk = try await current.next()
                    } catch {
                        body = nil
                        guard Self.isTransient(error) else { throw error }
                        try await waitToReconnect()
                        continue
                    }
                    guard let chunk else {
                        body = nil
                        try await waitToReconnect()
                        continue
                    }
                    body = current
                    let parsed = parser.parse(chunk)
                    pending = parsed.events
                    if let failure = parsed.failure {
                        // The events the server finished before the broken limit go out first.
                        body = nil
                        limitFailure = Self.failure(failure, url: source.request.url)
                    }
                } else {
                    try await connect()
                }
            }
        }

        /// The next event, or `nil` at the end of the stream.
        ///
        /// - Parameter actor: The caller's isolation.
        /// - Throws: `SessionError` as ``next()`` does.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SessionError)
            -> ServerSentEvent?
        {
            try await next()
        }

        private mutating func connect() async throws(SessionError) {
            var request = source.request
            // These values cannot be refused: constants, and an id the parser split at CR and LF
            // and rejected with NUL.
            try? request.headers.set(name: "Accept", value: "text/event-stream")
            try? request.headers.set(name: "Cache-Control", value: "no-cache")
            if !parser.lastEventID.isEmpty {
                try? request.headers.set(name: "Last-Event-ID", value: parser.lastEventID)
            }
            let stream: StreamingResponse
            do {
                stream = try await source.session.streamingResponse(for: request)
            } catch {
                guard connectedOnce, Self.isTransient(error) else { throw error }
                try await waitToReconnect()
                return
            }
            connectedOnce = true
            let status = stream.response.status.code
            if status == 204 {
                finished = true
                return
            }
            guard status == 200, stream.response.mimeType == "text/event-stream" else {
                stream.task.cancel()
                throw SessionError(
                    kind: .eventStream(.notAnEventStream),
                    message:
                        "the server answered \(status) with \(stream.response.mimeType ?? "no content type"), not a 200 text/event-stream",
                    failingURL: request.url,
                    response: stream.response
                )
            }
            parser.reset()
            body = stream.body.makeAsyncIterator()
        }

        private mutating func waitToReconnect() async throws(SessionError) {
            if let limit = source.configuration.maximumReconnections, reconnections >= limit {
                finished = true
                return
            }
            reconnections += 1
            do {
                try await source.session.configuration.clock.sleep(
                    for: parser.retry ?? source.configuration.reconnectionDelay
                )
            } catch {
                throw .cancelled(source.request.url)
            }
        }

        /// Whether a failure is the network's, after which a browser reconnects.
        private static func isTransient(_ error: SessionError) -> Bool {
            guard case .transport(let category) = error.kind else { return false }
            return TransportError.Category.transient.contains(category)
        }

        private static func failure(_ failure: ServerSentEventParser.Failure, url: URL) -> SessionError {
            switch failure {
            case .lineTooLong(let limit):
                SessionError(
                    kind: .eventStream(.lineTooLong(limit: limit)),
                    message: "an event-stream line passed \(limit) bytes",
                    failingURL: url
                )
            case .eventTooLarge(let limit):
                SessionError(
                    kind: .eventStream(.eventTooLarge(limit: limit)),
                    message: "an event's data passed \(limit) bytes",
                    failingURL: url
                )
            }
        }
    }
}

extension SessionManager {
    /// The Server-Sent Events of `request`, reconnecting as a browser's EventSource does.
    ///
    /// ```swift
    /// for try await event in session.eventSource(for: HTTPRequest(url: url)) { print(event.data) }
    /// ```
    /// - Parameters:
    ///   - request: The request (a `GET`, usually); the event-stream headers are added.
    ///   - configuration: Reconnection and limits.
    /// - Returns: The events; nothing is sent until it is iterated.
    public func eventSource(
        for request: HTTPRequest,
        configuration: EventSource.Configuration = EventSource.Configuration()
    ) -> EventSource {
        EventSource(session: self, request: request, configuration: configuration)
    }
}
