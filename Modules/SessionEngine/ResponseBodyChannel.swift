internal import CourierHTTP
internal import CourierLocking
internal import CourierSessionCore
internal import FoundationEssentials

/// Hands a streamed task's response head and body chunks from its transfer reader to one consumer,
/// one chunk at a time: the reader waits until the consumer has taken a chunk, so a slow consumer
/// pauses the transfer (through the transport's backpressure) instead of filling memory.
final class ResponseBodyChannel: Sendable {
    private struct State {
        var head: HTTPResponse?
        var headWaiter: CheckedContinuation<Result<HTTPResponse, SessionError>, Never>?
        var pending: Data?
        var producer: CheckedContinuation<Bool, Never>?
        var consumer: CheckedContinuation<Result<Data?, SessionError>, Never>?
        var end: Result<Void, SessionError>?
        var consumerGone = false
    }

    private let state = Lock(State())

    /// Whether the head reached the consumer's side: after that, nothing may be retried.
    var hasHead: Bool { state.withLock { $0.head != nil } }

    // MARK: Producer (the task's transfer reader)

    func deliver(head: HTTPResponse) {
        let waiter = state.withLock { state in
            state.head = head
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: .success(head))
    }

    /// Passes `chunk` on; returns `false` when the consumer is gone and no more should be sent.
    func send(_ chunk: Data) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            enum Action {
                case handOver(CheckedContinuation<Result<Data?, SessionError>, Never>)
                case refuse
                case wait
            }
            let action = state.withLock { state -> Action in
                if state.consumerGone { return .refuse }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return .handOver(consumer)
                }
                state.pending = chunk
                state.producer = continuation
                return .wait
            }
            switch action {
            case .handOver(let consumer):
                consumer.resume(returning: .success(chunk))
                continuation.resume(returning: true)
            case .refuse:
                continuation.resume(returning: false)
            case .wait:
                break
            }
        }
    }

    /// Ends the stream: the body ends normally, or with `error` (which, before a head, is what
    /// waiting for the head throws).
    func finish(error: SessionError?) {
        let (headWaiter, consumer, producer) = state.withLock { state in
            if state.end == nil { state.end = error.map { .failure($0) } ?? .success(()) }
            defer {
                state.headWaiter = nil
                state.consumer = nil
                state.producer = nil
            }
            return (state.headWaiter, state.consumer, state.producer)
        }
        headWaiter?.resume(returning: .failure(error ?? Self.endedWithoutHead))
        if let error {
            consumer?.resume(returning: .failure(error))
        } else {
            consumer?.resume(returning: .success(nil))
        }
        producer?.resume(returning: false)
    }

    private static let endedWithoutHead = SessionError(
        kind: .cancelled,
        message: "the task ended without a response",
        failingURL: nil
    )

    // MARK: Consumer

    func head() async -> Result<HTTPResponse, SessionError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<HTTPResponse, SessionError>? in
                if let head = state.head { return .success(head) }
                switch state.end {
                case .failure(let error): return .failure(error)
                case .success: return .failure(Self.endedWithoutHead)
                case nil:
                    state.headWaiter = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func next() async -> Result<Data?, SessionError> {
        await withCheckedContinuation { continuation in
            let (ready, producer) = state.withLock {
                state -> (Result<Data?, SessionError>?, CheckedContinuation<Bool, Never>?) in
                if let chunk = state.pending {
                    state.pending = nil
                    defer { state.producer = nil }
                    return (.success(chunk), state.producer)
                }
                switch state.end {
                case .success: return (.success(nil), nil)
                case .failure(let error): return (.failure(error), nil)
                case nil:
                    state.consumer = continuation
                    return (nil, nil)
                }
            }
            producer?.resume(returning: true)
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The consumer stopped reading: the producer stops sending, a waiting read ends with `error`.
    func consumerDidLeave(_ error: SessionError) {
        let (producer, consumer) = state.withLock { state in
            state.consumerGone = true
            state.pending = nil
            defer {
                state.producer = nil
                state.consumer = nil
            }
            return (state.producer, state.consumer)
        }
        producer?.resume(returning: false)
        consumer?.resume(returning: .failure(error))
    }
}
