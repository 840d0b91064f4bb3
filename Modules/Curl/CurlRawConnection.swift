internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import FoundationEssentials

/// The caller's end of a raw connection the loop keeps (``RawConnectionState``): reads come from
/// a backpressured channel the loop fills, writes and closes are commands to the loop.
package final class CurlRawConnection: RawConnection {
    private struct State {
        var closed = false
        var reading = false
    }

    /// The most the loop reads from the socket at once: the buffered bytes stay below the
    /// high-water mark plus this.
    package static let readChunkSize = 64 << 10

    private let loop: CurlLoop
    private let id: Int
    private let url: URL
    private let consumer: BackpressuredChannel<[UInt8], TransportError>.Consumer
    private let state = Lock(State())

    init(loop: CurlLoop, id: Int, url: URL, consumer: BackpressuredChannel<[UInt8], TransportError>.Consumer) {
        self.loop = loop
        self.id = id
        self.url = url
        self.consumer = consumer
    }

    deinit {
        // A connection dropped without `close()` would otherwise hold its socket until shutdown.
        loop.post(.rawClose(id, nil))
    }

    /// The received bytes waiting for the reader: a hook for tests of the read backpressure.
    package var bufferedByteCount: Int { consumer.bufferedSize }

    private var closedError: TransportError {
        TransportError(category: .cancelled, message: "the connection was closed", url: url)
    }

    package func read() async throws -> [UInt8]? {
        let admitted = state.withLock { state -> Bool? in
            if state.closed { return nil }
            if state.reading { return false }
            state.reading = true
            return true
        }
        guard let admitted else { throw closedError }
        guard admitted else {
            throw TransportError(
                category: .alreadyConsumed,
                message: "another read is pending on this connection (one reader at a time)",
                url: url
            )
        }
        defer { state.withLock { $0.reading = false } }
        switch await consumer.next() {
        case .element(let bytes): return bytes
        case .end: return nil
        case .failure(let error): throw error
        case .abandoned: throw closedError
        }
    }

    package func write(_ bytes: [UInt8]) async throws {
        if state.withLock({ $0.closed }) { throw closedError }
        guard !bytes.isEmpty else { return }
        let loop = loop
        let id = id
        let url = url
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, TransportError>, Never>) in
                if !loop.post(.rawWrite(id, bytes, continuation)) {
                    continuation.resume(returning: .failure(CurlLoop.shutDownError(url)))
                }
            }
        } onCancel: {
            // Part of the bytes may be out: the stream cannot be continued.
            self.markClosed()
            loop.post(.rawClose(id, nil))
        }
        try result.get()
    }

    package func close() async {
        guard markClosed() else { return }
        let loop = loop
        let id = id
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !loop.post(.rawClose(id, continuation)) { continuation.resume() }
        }
    }

    /// Marks the connection closed and wakes a pending read; `false` when it already was.
    @discardableResult
    private func markClosed() -> Bool {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        consumer.leave()
        return first
    }
}
