public import FoundationEssentials
internal import Synchronization

/// The body of a request, for every layer: empty, bytes, a file, a replayable stream (such as a
/// multipart form) or an async producer.
///
/// Every kind but the async producer is *replayable*: ``makeReader()`` returns a fresh synchronous
/// pull reader that a transport thread can call without blocking, and a redirect or a retry can send
/// the body again. An async producer is consumed once: every copy of the body shares it, and a
/// second read (a retry, a 307 or 308 redirect, an adapter's copy) fails with
/// ``HTTPValueError/Code/bodyAlreadyConsumed`` instead of sending an empty or partial body. Check
/// ``isReplayable`` before sending a body again.
///
/// ```swift
/// let json = HTTPBody(Data(#"{"name":"Ada"}"#.utf8))
/// let upload = try HTTPBody(fileAt: "/var/tmp/video.mp4")
/// let live = HTTPBody(length: nil, producer: AsyncThrowingStream { continuation in
///     continuation.yield(Data("chunk".utf8))
///     continuation.finish()
/// })
/// ```
public struct HTTPBody: Sendable {
    /// The kind of a body.
    public enum Kind: Sendable, Hashable {
        /// No body at all.
        case empty
        /// Bytes held in memory.
        case bytes
        /// A range of a file, read lazily.
        case file
        /// A replayable stream from an ``HTTPBodySource``.
        case stream
        /// An async sequence of chunks, consumed once.
        case producer
    }

    /// A once-only async source of body chunks, shared by every copy of its body.
    ///
    /// ```swift
    /// var chunks = try body.producer?.claim()
    /// while let chunk = try await chunks?.next() { send(chunk) }
    /// ```
    public final class Producer: Sendable {
        private let sequence: any AsyncSequence<Data, any Error> & Sendable
        private let claimed = Atomic(false)

        init(_ sequence: any AsyncSequence<Data, any Error> & Sendable) {
            self.sequence = sequence
        }

        /// Whether a reader has already claimed the chunks.
        public var isConsumed: Bool { claimed.load(ordering: .acquiring) }

        /// Claims the chunks for the one reader they can have and returns its iterator.
        ///
        /// - Throws: ``HTTPValueError`` with ``HTTPValueError/Code/bodyAlreadyConsumed`` on every
        ///   call after the first, from any copy of the body.
        public func claim() throws(HTTPValueError) -> any AsyncIteratorProtocol<Data, any Error> {
            guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else {
                throw HTTPValueError(
                    code: .bodyAlreadyConsumed,
                    value: "producer",
                    reason: "a one-shot body was already read; it cannot be sent again"
                )
            }
            return sequence.makeAsyncIterator()
        }
    }

    enum Storage: Sendable {
        case empty
        case bytes(Data)
        case file(path: String, offset: Int64, length: Int64)
        case stream(any HTTPBodySource)
        case producer(length: Int64?, Producer)
    }

    let storage: Storage

    /// An empty body: no bytes and, for body methods, `Content-Length: 0`.
    public static let empty = HTTPBody(storage: .empty)

    init(storage: Storage) {
        self.storage = storage
    }

    /// A body of bytes held in memory.
    ///
    /// ```swift
    /// let body = HTTPBody(Data("hello".utf8))
    /// ```
    public init(_ data: Data) {
        storage = data.isEmpty ? .empty : .bytes(data)
    }

    /// A body read lazily from a file, or from a range of it.
    ///
    /// The file's size is read now, so the length is known before sending; the bytes are read only
    /// while the request is sent, so a large file is never held in memory. A file that shrinks before
    /// it is read makes the reader throw rather than send a short body.
    ///
    /// ```swift
    /// let whole = try HTTPBody(fileAt: "/srv/upload.bin")
    /// let tail = try HTTPBody(fileAt: "/srv/upload.bin", offset: 1_048_576)
    /// ```
    /// - Parameters:
    ///   - path: The file's path.
    ///   - offset: The first byte to send.
    ///   - length: How many bytes to send; `nil` sends to the end of the file.
    /// - Throws: ``HTTPValueError`` with ``HTTPValueError/Code/unreadableFile`` when the file cannot
    ///   be opened, or ``HTTPValueError/Code/invalidRange`` when the range lies outside it.
    public init(fileAt path: String, offset: Int64 = 0, length: Int64? = nil) throws(HTTPValueError) {
        let size = try FileBodyReader.regularFileSize(path)
        guard offset >= 0, offset <= size else {
            throw HTTPValueError(
                code: .invalidRange,
                value: path,
                reason: "offset \(offset) lies outside a file of \(size) bytes"
            )
        }
        let available = size - offset
        let count = length ?? available
        guard count >= 0, count <= available else {
            throw HTTPValueError(
                code: .invalidRange,
                value: path,
                reason: "\(count) bytes from offset \(offset) exceed a file of \(size) bytes"
            )
        }
        storage = .file(path: path, offset: offset, length: count)
    }

    /// A replayable body produced on demand by `source`, such as a streaming multipart form.
    ///
    /// ```swift
    /// let body = HTTPBody(source: form)
    /// ```
    public init(source: some HTTPBodySource) {
        storage = .stream(source)
    }

    /// A body produced by an async sequence of chunks; it is consumed once and cannot be replayed.
    ///
    /// A transport pauses the transfer while the sequence has nothing ready. Sending the body (or a
    /// copy of it) a second time fails the transfer; see ``Producer/claim()``.
    ///
    /// ```swift
    /// let body = HTTPBody(length: nil, producer: chunks)  // sent with chunked transfer coding
    /// ```
    /// - Parameters:
    ///   - length: The exact total length, or `nil` when unknown.
    ///   - producer: The chunks, in order.
    public init(length: Int64?, producer: some AsyncSequence<Data, any Error> & Sendable) {
        storage = .producer(length: length, Producer(producer))
    }

    /// The body's kind.
    public var kind: Kind {
        switch storage {
        case .empty: .empty
        case .bytes: .bytes
        case .file: .file
        case .stream: .stream
        case .producer: .producer
        }
    }

    /// The exact length in bytes, or `nil` when it is unknown.
    public var length: Int64? {
        switch storage {
        case .empty: 0
        case .bytes(let data): Int64(data.count)
        case .file(_, _, let length): length
        case .stream(let source): source.length
        case .producer(let length, _): length
        }
    }

    /// Whether the body can be sent again (after a redirect or for a retry).
    public var isReplayable: Bool {
        if case .producer = storage { return false }
        return true
    }

    /// The bytes, when the body is held in memory (``Kind/empty`` or ``Kind/bytes``).
    public var bytes: Data? {
        switch storage {
        case .empty: Data()
        case .bytes(let data): data
        default: nil
        }
    }

    /// The async producer, when the body is one (``Kind/producer``).
    public var producer: Producer? {
        if case .producer(_, let producer) = storage { return producer }
        return nil
    }

    /// Returns a fresh synchronous reader positioned at the first byte, or `nil` for an async producer.
    ///
    /// Call it on the thread that will read, and keep the reader there.
    ///
    /// - Throws: An error from the source, such as an unreadable file.
    public func makeReader() throws -> (any HTTPBodyReader)? {
        switch storage {
        case .empty: return DataBodyReader(Data())
        case .bytes(let data): return DataBodyReader(data)
        case .file(let path, let offset, let length):
            return try FileBodyReader(path: path, offset: offset, length: length)
        case .stream(let source): return try source.makeReader()
        case .producer: return nil
        }
    }

    /// Reads the whole body into memory; pacing is honoured with `Task.sleep`, never by blocking.
    ///
    /// Meant for tests and test doubles; a transport streams instead.
    ///
    /// ```swift
    /// let sent = try await request.body.collect(upTo: 1 << 20)
    /// ```
    /// - Parameter limit: The largest body accepted.
    /// - Throws: ``HTTPValueError`` with ``HTTPValueError/Code/invalidRange`` when the body is longer
    ///   than `limit`, ``HTTPValueError/Code/bodyAlreadyConsumed`` when a one-shot body was read
    ///   before, or the reader's or producer's error.
    public func collect(upTo limit: Int) async throws -> Data {
        var result = Data()
        func append(_ chunk: some Collection<UInt8>) throws {
            guard result.count + chunk.count <= limit else {
                throw HTTPValueError(
                    code: .invalidRange,
                    value: "\(limit)",
                    reason: "the body is longer than the limit"
                )
            }
            result.append(contentsOf: chunk)
        }
        if let producer {
            var iterator = try producer.claim()
            while let chunk = try await iterator.next(isolation: #isolation) { try append(chunk) }
            return result
        }
        guard let reader = try makeReader() else { return result }
        try await reader.readToEnd { chunk in try append(chunk) }
        return result
    }
}
