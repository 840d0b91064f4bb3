internal import CourierLocking
public import CourierTransport

/// A scripted raw connection for tests of code built on `RawConnection` (a WebSocket engine):
/// reads hand out the scripted bytes in the scripted chunks, then the scripted ending; writes are
/// recorded. Nothing touches the network.
///
/// ```swift
/// let connection = MockRawConnection(delivering: Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8), chunkSize: 8)
/// transport.stubRawConnection(url: "http://127.0.0.1/chat", connection)
/// // ... run the engine ...
/// #expect(connection.written.starts(with: Array("GET /chat HTTP/1.1\r\n".utf8)))
/// ```
///
/// A read with nothing scripted waits until ``deliver(_:)`` or ``finish(throwing:)`` scripts more,
/// or until ``close()``; so a test can play the server's side step by step.
public final class MockRawConnection: RawConnection {
    /// One scripted thing a read hands out.
    public enum Step: Sendable {
        /// The next read returns these bytes (an empty array is skipped).
        case bytes([UInt8])
        /// The stream ends cleanly: this read and every later one return `nil`.
        case end
        /// The connection fails: this read and every later one throw the error.
        case failure(TransportError)
    }

    private struct State {
        var steps: [Step] = []
        var ending: Step?
        var reader: CheckedContinuation<Step, Never>?
        var writes: [[UInt8]] = []
        var closeCount = 0
        var writeFailure: TransportError?
    }

    private let state = Lock(State())

    /// Creates a connection that hands out `steps` in order.
    ///
    /// ```swift
    /// let connection = MockRawConnection(steps: [.bytes([1, 2]), .bytes([3]), .end])
    /// ```
    /// - Parameter steps: What the reads hand out; with no ending, a read after the last step waits.
    public init(steps: [Step] = []) {
        state.withLock { $0.steps = steps }
    }

    /// Creates a connection that hands out `bytes`, in chunks of `chunkSize` when given, then
    /// `ending`.
    ///
    /// ```swift
    /// let connection = MockRawConnection(delivering: Array("hello".utf8), chunkSize: 2)  // "he", "ll", "o", nil
    /// ```
    /// - Parameters:
    ///   - bytes: The bytes the reads hand out.
    ///   - chunkSize: The most one read returns; all at once when `nil`.
    ///   - ending: What follows the bytes: `.end` by default, `.failure` for a broken connection;
    ///     `nil` leaves the connection open (a read then waits).
    public convenience init(delivering bytes: [UInt8], chunkSize: Int? = nil, ending: Step? = .end) {
        let size = max(1, chunkSize ?? bytes.count)
        var steps: [Step] = stride(from: 0, to: bytes.count, by: size).map {
            .bytes(Array(bytes[$0..<min($0 + size, bytes.count)]))
        }
        if let ending { steps.append(ending) }
        self.init(steps: steps)
    }

    /// Every `write` call's bytes, in order.
    public var writes: [[UInt8]] { state.withLock { $0.writes } }

    /// All the bytes written, joined.
    public var written: [UInt8] { writes.flatMap { $0 } }

    /// How many times ``close()`` was called.
    public var closeCount: Int { state.withLock { $0.closeCount } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closeCount > 0 }

    /// Scripts more bytes for the reads (the server sends more).
    ///
    /// ```swift
    /// connection.deliver(Array("pong".utf8))
    /// ```
    /// - Parameter bytes: The bytes a read hands out next, after those already scripted.
    public func deliver(_ bytes: [UInt8]) {
        push(.bytes(bytes))
    }

    /// Scripts the end of the stream: cleanly when `failure` is `nil`.
    ///
    /// ```swift
    /// connection.finish(throwing: TransportError(category: .connectionLost, message: "reset"))
    /// ```
    /// - Parameter failure: The error the reads throw once the scripted bytes are read.
    public func finish(throwing failure: TransportError? = nil) {
        push(failure.map { .failure($0) } ?? .end)
    }

    /// Makes every later write throw `failure` (a connection the server broke).
    ///
    /// ```swift
    /// connection.failWrites(with: TransportError(category: .connectionLost, message: "broken pipe"))
    /// ```
    /// - Parameter failure: The error.
    public func failWrites(with failure: TransportError) {
        state.withLock { $0.writeFailure = failure }
    }

    private func push(_ step: Step) {
        let reader = state.withLock { state -> CheckedContinuation<Step, Never>? in
            guard state.closeCount == 0, state.ending == nil else { return nil }
            if let reader = state.reader, state.steps.isEmpty {
                state.reader = nil
                if case .bytes = step {} else { state.ending = step }
                return reader
            }
            state.steps.append(step)
            return nil
        }
        reader?.resume(returning: step)
    }

    private static let closedError = TransportError(category: .cancelled, message: "the connection was closed")

    /// The next scripted bytes, `nil` after a scripted end; throws a scripted failure, and
    /// `TransportError.Category.cancelled` after ``close()``.
    ///
    /// ```swift
    /// while let bytes = try await connection.read() { received += bytes }
    /// ```
    /// - Returns: The next scripted bytes, or `nil` at the scripted end.
    public func read() async throws -> [UInt8]? {
        enum Take {
            case step(Step)
            case busy
            case wait
        }
        while true {
            let step = await withCheckedContinuation { (continuation: CheckedContinuation<Step, Never>) in
                let take = state.withLock { state -> Take in
                    if state.closeCount > 0 { return .step(.failure(Self.closedError)) }
                    if let ending = state.ending { return .step(ending) }
                    if state.reader != nil { return .busy }
                    guard !state.steps.isEmpty else {
                        state.reader = continuation
                        return .wait
                    }
                    let step = state.steps.removeFirst()
                    if case .bytes = step {} else { state.ending = step }
                    return .step(step)
                }
                switch take {
                case .step(let step): continuation.resume(returning: step)
                case .busy:
                    continuation.resume(
                        returning: .failure(
                            TransportError(category: .alreadyConsumed, message: "another read is pending")
                        )
                    )
                case .wait: break
                }
            }
            switch step {
            case .bytes(let bytes):
                if bytes.isEmpty { continue }
                return bytes
            case .end: return nil
            case .failure(let error): throw error
            }
        }
    }

    /// Records `bytes`; throws after ``close()`` or ``failWrites(with:)``.
    ///
    /// ```swift
    /// try await connection.write([0x81, 0x00])
    /// ```
    /// - Parameter bytes: The bytes to record.
    public func write(_ bytes: [UInt8]) async throws {
        let failure = state.withLock { state -> TransportError? in
            if state.closeCount > 0 { return Self.closedError }
            if let failure = state.writeFailure { return failure }
            state.writes.append(bytes)
            return nil
        }
        if let failure { throw failure }
    }

    /// Closes the connection: a pending read throws `TransportError.Category.cancelled`, and so do
    /// later reads and writes. Counted in ``closeCount``.
    ///
    /// ```swift
    /// await connection.close()
    /// ```
    public func close() async {
        let reader = state.withLock { state -> CheckedContinuation<Step, Never>? in
            state.closeCount += 1
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: .failure(Self.closedError))
    }
}
