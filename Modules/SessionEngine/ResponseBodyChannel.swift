internal import CourierHTTP
internal import CourierLocking
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// Hands a streamed task's response head and body chunks from its transfer reader to one consumer,
/// one chunk at a time: the reader waits until the consumer has taken a chunk, so a slow consumer
/// pauses the transfer (through the transport's backpressure) instead of filling memory.
///
/// The body goes through a `BackpressuredChannel` that counts chunks, with a high-water mark of one
/// and a low-water mark of none: a send returns once its chunk is read. The head is a one-shot value
/// beside it, awaited before the body.
final class ResponseBodyChannel: Sendable {
    private typealias Body = BackpressuredChannel<Data, SessionError>

    private struct HeadState {
        var head: HTTPResponse?
        var waiter: CheckedContinuation<Result<HTTPResponse, SessionError>, Never>?
        var end: SessionError??
    }

    private let headState = Lock(HeadState())
    private let producer: Body.Producer
    private let consumer: Body.Consumer

    init() {
        (producer, consumer) = Body.makeChannel(highWaterMark: 1, lowWaterMark: 0, size: { _ in 1 })
    }

    /// Whether the head reached the consumer's side: after that, nothing may be retried.
    var hasHead: Bool { headState.withLock { $0.head != nil } }

    // MARK: Producer (the task's transfer reader)

    func deliver(head: HTTPResponse) {
        let waiter = headState.withLock { state in
            state.head = head
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .success(head))
    }

    /// Passes `chunk` on and waits until it is read; `false` when the consumer is gone and no more
    /// should be sent.
    func send(_ chunk: Data) async -> Bool {
        await producer.send(chunk)
    }

    /// Ends the stream: the body ends normally, or with `error` (which, before a head, is what
    /// waiting for the head throws).
    func finish(error: SessionError?) {
        let waiter = headState.withLock { state in
            if state.end == nil { state.end = .some(error) }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .failure(error ?? Self.endedWithoutHead))
        producer.finish(throwing: error)
    }

    private static let endedWithoutHead = SessionError(
        kind: .cancelled,
        message: "the task ended without a response",
        failingURL: nil
    )

    // MARK: Consumer

    func head() async -> Result<HTTPResponse, SessionError> {
        await withCheckedContinuation { continuation in
            let ready = headState.withLock { state -> Result<HTTPResponse, SessionError>? in
                if let head = state.head { return .success(head) }
                switch state.end {
                case .some(.some(let error)): return .failure(error)
                case .some(.none): return .failure(Self.endedWithoutHead)
                case .none:
                    state.waiter = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The next chunk, `nil` at the end; `abandoned` is the error once the consumer has left.
    func next(abandoned: @autoclosure () -> SessionError) async -> Result<Data?, SessionError> {
        switch await consumer.next() {
        case .element(let chunk): .success(chunk)
        case .end: .success(nil)
        case .failure(let error): .failure(error)
        case .abandoned: .failure(abandoned())
        }
    }

    /// The consumer stopped reading: the producer stops sending, a waiting read ends.
    func consumerDidLeave() {
        consumer.leave()
    }
}
