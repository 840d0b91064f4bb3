internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import FoundationEssentials

/// Cancel, suspend and resume of one scripted transfer: each is recorded and takes effect.
final class MockTransferControl: TransferControlling {
    private struct State {
        var task: Task<Void, Never>?
        var cancelled = false
        var suspended = false
        var resumeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    private let source: TransferEventSource
    private let url: URL
    private let record: @Sendable (MockTransport.ControlCall.Action) -> Void

    init(source: TransferEventSource, url: URL, record: @escaping @Sendable (MockTransport.ControlCall.Action) -> Void)
    {
        self.source = source
        self.url = url
        self.record = record
    }

    /// Hands over the task that plays the script; cancelled at once if the transfer already was.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        record(.cancel)
        stopPlaying()
        source.yield(.failed(MockTransport.cancelled(url)))
    }

    /// Stops the script without reporting (the consumer left, so nobody listens).
    func stopPlaying() {
        let (task, waiters) = state.withLock { state in
            state.cancelled = true
            state.suspended = false
            defer { state.resumeWaiters = [] }
            return (state.task, state.resumeWaiters)
        }
        task?.cancel()
        for waiter in waiters { waiter.resume() }
    }

    func suspend() {
        record(.suspend)
        state.withLock { state in
            if !state.cancelled { state.suspended = true }
        }
    }

    func resume() {
        record(.resume)
        let waiters = state.withLock { state in
            state.suspended = false
            defer { state.resumeWaiters = [] }
            return state.resumeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at once unless the transfer is suspended; then when it is resumed or cancelled.
    func waitWhileSuspended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let parked = state.withLock { state in
                guard state.suspended else { return false }
                state.resumeWaiters.append(continuation)
                return true
            }
            if !parked { continuation.resume() }
        }
    }
}

/// Wakes the scripted producer when the consumer has drained the buffer (or the task is cancelled).
final class MockDemandSignal: Sendable {
    private let state = Lock<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state in
            defer { state = (state.waiter == nil, nil) }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.signalled || Task.isCancelled {
                        state.signalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
