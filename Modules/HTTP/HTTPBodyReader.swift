/// What one call to ``HTTPBodyReader/read(into:)`` produced.
public enum HTTPBodyReadResult: Sendable, Hashable {
    /// This many bytes were written to the start of the buffer (always more than zero).
    case bytes(Int)
    /// The body has no more bytes.
    case end
    /// No bytes are ready before this instant (throttling); ask again then, and never sleep meanwhile.
    case paused(until: ContinuousClock.Instant)
}

/// A synchronous pull reader over a replayable body, for a transport thread.
///
/// A transport obtains a reader from ``HTTPBody/makeReader()`` on the thread that will use it and
/// keeps it confined there, which is why readers are not `Sendable`. ``read(into:)`` never sleeps or
/// waits on another thread; a paced body answers ``HTTPBodyReadResult/paused(until:)`` instead.
///
/// ```swift
/// let reader = try body.makeReader()
/// var buffer = [UInt8](repeating: 0, count: 16_384)
/// while case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try reader?.read(into: $0) ?? .end }) {
///     sink(buffer[..<count])
/// }
/// ```
public protocol HTTPBodyReader: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer`.
    ///
    /// - Throws: An error that says why the body cannot be read (a file that vanished or shrank, say).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult

    /// Starts again from the first byte, as for a redirect or a retried request.
    func rewind() throws
}

/// A replayable body whose bytes are produced on demand, such as a streaming multipart form.
///
/// Conformers describe the body; each ``makeReader()`` call returns an independent reader that starts
/// at the first byte, so a copy of the request can be sent again.
///
/// ```swift
/// struct Zeros: HTTPBodySource {
///     let length: Int64? = 1024
///     func makeReader() throws -> any HTTPBodyReader { ZeroReader(count: 1024) }
/// }
/// let body = HTTPBody(source: Zeros())
/// ```
public protocol HTTPBodySource: Sendable {
    /// The exact number of bytes every reader produces, or `nil` when unknown (chunked upload).
    var length: Int64? { get }

    /// Returns a reader positioned at the first byte.
    func makeReader() throws -> any HTTPBodyReader
}

extension HTTPBodyReader {
    /// Reads to the end from an async context, handing each chunk to `consume`.
    ///
    /// A pause suspends the task with `Task.sleep` until the reader's instant, so no thread is held.
    /// For tests, doubles and tools that drain a body in a task; a transport thread calls
    /// ``read(into:)`` itself and never sleeps.
    ///
    /// ```swift
    /// var count = 0
    /// try await reader.readToEnd { chunk in count += chunk.count }
    /// ```
    /// - Parameters:
    ///   - bufferSize: The largest chunk handed to `consume`.
    ///   - consume: Receives each chunk; the bytes are valid only during the call.
    /// - Throws: The reader's or `consume`'s error, or `CancellationError` when the task is cancelled.
    public func readToEnd(
        bufferSize: Int = 65_536,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) async throws {
        var buffer = [UInt8](repeating: 0, count: Swift.max(1, bufferSize))
        while true {
            try Task.checkCancellation()
            let outcome = try buffer.withUnsafeMutableBytes { try read(into: $0) }
            switch outcome {
            case .bytes(let count):
                try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .end:
                return
            case .paused(let instant):
                try await Task.sleep(until: instant, clock: .continuous)
            }
        }
    }
}
