internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import FoundationEssentials

/// Carries an async producer's request body to the loop thread's read callback.
///
/// A task iterates the producer and sends its chunks into a `BackpressuredChannel` counted in bytes;
/// the loop thread polls it (through ``UploadPump``, which copies a chunk into libcurl's buffers
/// piece by piece). The channel holds at most `capacity` bytes plus one chunk: a send that reaches
/// it suspends the producing task until the loop has drained half of it, so a fast producer never
/// outruns the network. When a poll finds the channel empty the read callback returns
/// `CURL_READFUNC_PAUSE`; the next chunk (or the end) calls `wake`, which posts an unpause to the loop.
final class RequestBodyPipe: Sendable {
    typealias Channel = BackpressuredChannel<Data, any Error>

    private struct State {
        var closed = false
        var task: Task<Void, Never>?
    }

    private let state = Lock(State())
    private let producer: Channel.Producer
    private let consumer: Channel.Consumer

    /// Creates a pipe; `wake` runs (on the producing task) when a paused reader can go on.
    init(capacity: Int, wake: @escaping @Sendable () -> Void) {
        let capacity = max(1, capacity)
        (producer, consumer) = Channel.makeChannel(
            highWaterMark: capacity,
            lowWaterMark: capacity / 2,
            size: { $0.count }
        )
        consumer.setReadableHandler(wake)
    }

    /// Starts the task that drains a claimed producer's `chunks` into the pipe.
    func start(_ chunks: sending any AsyncIteratorProtocol<Data, any Error>) {
        let task = Task { [producer] in
            var iterator = chunks
            do {
                while let chunk = try await iterator.next(isolation: nil) {
                    if chunk.isEmpty { continue }
                    guard await producer.send(chunk) else { return }
                }
                producer.finish()
            } catch {
                producer.finish(throwing: error)
            }
        }
        let cancelNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// The next chunk, the end or the producer's failure; `nil` when the producer has not caught up
    /// (then, when `armingWake`, `wake` runs once it has). Loop thread.
    func poll(armingWake: Bool) -> Channel.Read? {
        consumer.poll(armingReadable: armingWake)
    }

    /// Ends the pipe: the producing task is cancelled and a waiting send returns `false`.
    func close() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.closed = true
            defer { state.task = nil }
            return state.task
        }
        consumer.leave()
        task?.cancel()
    }
}
