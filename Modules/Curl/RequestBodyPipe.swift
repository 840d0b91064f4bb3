internal import CourierHTTP
internal import CourierLocking
internal import FoundationEssentials

/// Carries an async producer's request body to the loop thread's read callback.
///
/// A task iterates the producer and pushes chunks; the read callback pulls them on the loop thread.
/// The pipe holds at most `capacity` bytes: a push beyond it suspends the producing task until the
/// loop has drained half of it, so a fast producer never outruns the network. When the read callback
/// finds the pipe empty it returns `CURL_READFUNC_PAUSE` and the pipe remembers that it waits; the
/// next push (or the end) calls `wake`, which posts an unpause to the loop.
final class RequestBodyPipe: Sendable {
    /// What a pull found.
    enum Pull {
        /// `count` bytes were copied.
        case bytes(Int)
        /// Nothing yet: the producer has not caught up.
        case empty
        /// The producer finished.
        case end
        /// The producer threw.
        case failed(any Error)
    }

    private struct State {
        var chunks: [Data] = []
        var offsetInFirst = 0
        var buffered = 0
        var finished = false
        var failure: (any Error)?
        var readerWaiting = false
        var spaceWaiter: CheckedContinuation<Bool, Never>?
        var closed = false
        var task: Task<Void, Never>?
    }

    private let state = Lock(State())
    private let capacity: Int
    private let wake: @Sendable () -> Void

    /// Creates a pipe; `wake` runs (on the producing task) when a paused reader can go on.
    init(capacity: Int, wake: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.wake = wake
    }

    /// Starts the task that drains a claimed producer's `chunks` into the pipe.
    func start(_ chunks: sending any AsyncIteratorProtocol<Data, any Error>) {
        let task = Task { [self] in
            var iterator = chunks
            do {
                while let chunk = try await iterator.next(isolation: nil) {
                    guard await push(chunk) else { return }
                }
                finish(failure: nil)
            } catch {
                finish(failure: error)
            }
        }
        let cancelNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Appends a chunk, waiting while the pipe is full; `false` once the transfer has ended.
    private func push(_ chunk: Data) async -> Bool {
        guard !chunk.isEmpty else { return true }
        enum Step {
            case stored(wakeReader: Bool)
            case closed
            case full
        }
        while true {
            let step = state.withLock { state -> Step in
                if state.closed { return .closed }
                if state.buffered >= capacity { return .full }
                state.chunks.append(chunk)
                state.buffered += chunk.count
                let waiting = state.readerWaiting
                state.readerWaiting = false
                return .stored(wakeReader: waiting)
            }
            switch step {
            case .closed:
                return false
            case .stored(let wakeReader):
                if wakeReader { wake() }
                return true
            case .full:
                let open = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let answer: Bool? = state.withLock { state in
                        if state.closed { return false }
                        if state.buffered < capacity { return true }
                        state.spaceWaiter = continuation
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                }
                guard open else { return false }
            }
        }
    }

    private func finish(failure: (any Error)?) {
        let wakeReader = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.finished = true
            state.failure = failure
            let waiting = state.readerWaiting
            state.readerWaiting = false
            return waiting
        }
        if wakeReader { wake() }
    }

    /// Copies buffered bytes into `buffer` (loop thread).
    func pull(into buffer: UnsafeMutableRawBufferPointer) -> Pull {
        let (result, waiter) = state.withLock { state -> (Pull, CheckedContinuation<Bool, Never>?) in
            var copied = 0
            while copied < buffer.count, let first = state.chunks.first {
                let available = first.count - state.offsetInFirst
                let count = min(available, buffer.count - copied)
                let start = first.startIndex + state.offsetInFirst
                first.copyBytes(
                    to: UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)]),
                    from: start..<(start + count)
                )
                copied += count
                if count == available {
                    state.chunks.removeFirst()
                    state.offsetInFirst = 0
                } else {
                    state.offsetInFirst += count
                }
            }
            state.buffered -= copied
            var waiter: CheckedContinuation<Bool, Never>?
            if state.buffered <= capacity / 2 {
                waiter = state.spaceWaiter
                state.spaceWaiter = nil
            }
            if copied > 0 { return (.bytes(copied), waiter) }
            if state.finished {
                if let failure = state.failure { return (.failed(failure), waiter) }
                return (.end, waiter)
            }
            state.readerWaiting = true
            return (.empty, waiter)
        }
        waiter?.resume(returning: true)
        return result
    }

    /// Ends the pipe: the producing task is cancelled and a waiting push returns `false`.
    func close() {
        let (task, waiter) = state.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Bool, Never>?) in
            state.closed = true
            state.chunks.removeAll()
            state.buffered = 0
            defer {
                state.task = nil
                state.spaceWaiter = nil
            }
            return (state.task, state.spaceWaiter)
        }
        task?.cancel()
        waiter?.resume(returning: false)
    }
}
