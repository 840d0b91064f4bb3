public import CourierHTTP
internal import CourierLocking
public import CourierSessionCore
public import CourierTransport

/// One task of a session: a request that may take several attempts and redirect hops, with a state,
/// progress, and the controls AFNetworking's tasks have.
///
/// A task starts suspended, as AFNetworking's factories leave it; ``resume()`` starts it. Cancelling
/// reaches the transfer in flight at once and the task completes with
/// `SessionError.Kind.cancelled`; suspending pauses the transfer in flight (and holds back the
/// next attempt) until ``resume()``.
///
/// ```swift
/// let task = session.dataTask(with: request) { response in print(response.response?.status ?? "failed") }
/// task.resume()
/// ```
public final class SessionTask: Sendable, Hashable, CustomStringConvertible {
    /// Where a task is in its life.
    public enum State: Sendable, Hashable {
        /// Created or suspended; nothing moves.
        case suspended
        /// Sending or receiving.
        case running
        /// Cancelled and winding down; it completes next.
        case canceling
        /// Done, with a response or an error.
        case completed
    }

    private struct Mutable {
        var state = State.suspended
        var started = false
        /// Set by the first transfer: until then the current request is the original one (one
        /// copy of the request fewer per task).
        var currentRequest: HTTPRequest?
        var response: HTTPResponse?
        var transfer: HTTPTransfer?
        var runner: Task<Void, Never>?
        /// A wait the task is in (a retry delay), cancelled with the task: a runner that runs in
        /// its caller's task (``SessionManager/response(for:serializer:options:)``) has no
        /// `runner` to cancel.
        var pendingWait: Task<Void, any Error>?
        var uploadProgress = TransferProgress(completed: 0, total: nil)
        var downloadProgress = TransferProgress(completed: 0, total: nil)
        var error: SessionError?
        var progressStreams:
            [Int: (direction: ProgressDirection, continuation: AsyncStream<TransferProgress>.Continuation)] = [:]
        var nextStreamIdentifier = 0
    }

    /// Which side of a transfer a progress sequence follows.
    public enum ProgressDirection: Sendable, Hashable {
        /// Request body bytes sent.
        case upload
        /// Response body bytes received (written, for a download).
        case download
    }

    /// The task's identifier, unique in its session.
    public let taskIdentifier: Int
    /// The request the task was created with.
    public let originalRequest: HTTPRequest
    private let mutable: Lock<Mutable>
    private let hooks: Hooks

    /// What the session does when the task's state changes.
    struct Hooks: Sendable {
        /// Starts the task's first attempt; returns the task that runs it.
        let start: @Sendable (SessionTask) -> Task<Void, Never>?
        /// Reports a state event.
        let report: EventSink
        /// Completes a task cancelled before it started.
        let cancelBeforeStart: @Sendable (SessionTask) -> Void
    }

    init(identifier: Int, request: HTTPRequest, hooks: Hooks) {
        taskIdentifier = identifier
        originalRequest = request
        mutable = Lock(Mutable())
        self.hooks = hooks
    }

    /// The task's state now.
    public var state: State { mutable.withLock { $0.state } }
    /// The request being sent now: the original one adapted, or the latest redirect hop.
    public var currentRequest: HTTPRequest { mutable.withLock { $0.currentRequest } ?? originalRequest }
    /// The latest response head, once one arrived.
    public var response: HTTPResponse? { mutable.withLock { $0.response } }
    /// Request body bytes sent by the current attempt, and the total when known.
    public var uploadProgress: TransferProgress { mutable.withLock { $0.uploadProgress } }
    /// Response body bytes received by the current attempt, and the total when known.
    public var downloadProgress: TransferProgress { mutable.withLock { $0.downloadProgress } }
    /// The error the task completed with, if it failed.
    public var error: SessionError? { mutable.withLock { $0.error } }

    /// Starts the task, or lets a suspended one go on. Does nothing once it is cancelled or done.
    public func resume() {
        resumeReportingStart()
    }

    /// Resumes the task as ``resume()`` does; whether it has started, by this call or an earlier
    /// one (`false` for a task cancelled before it started). A task that runs in its caller's task
    /// learns here, under the same lock, whether its caller runs it.
    @discardableResult
    func resumeReportingStart() -> Bool {
        enum Step {
            case nothing(started: Bool)
            case start
            case resume(HTTPTransfer?)
        }
        let step = mutable.withLock { task -> Step in
            guard task.state == .suspended else { return .nothing(started: task.started) }
            task.state = .running
            if task.started { return .resume(task.transfer) }
            task.started = true
            return .start
        }
        switch step {
        case .nothing(let started):
            return started
        case .start:
            hooks.report(SessionEvent(.taskResumed, task: taskIdentifier, request: originalRequest))
            // A task run by its caller has no runner task to keep.
            if let runner = hooks.start(self) { mutable.withLock { $0.runner = runner } }
        case .resume(let transfer):
            hooks.report(SessionEvent(.taskResumed, task: taskIdentifier, request: currentRequest))
            transfer?.resume()
            resumeWaiters()
        }
        return true
    }

    /// Pauses a running task: the transfer in flight stops moving bytes, and no new attempt starts.
    public func suspend() {
        let transfer: HTTPTransfer?? = mutable.withLock { task in
            guard task.state == .running else { return .none }
            task.state = .suspended
            return .some(task.transfer)
        }
        guard case .some(let current) = transfer else { return }
        current?.suspend()
        hooks.report(SessionEvent(.taskSuspended, task: taskIdentifier, request: currentRequest))
    }

    /// Cancels the task: the transfer in flight is cancelled at once, and the task completes with
    /// `SessionError.Kind.cancelled`.
    public func cancel() {
        let found: (started: Bool, transfer: HTTPTransfer?, runner: Task<Void, Never>?)? = mutable.withLock { task in
            guard task.state == .suspended || task.state == .running else { return nil }
            task.state = .canceling
            return (task.started, task.transfer, task.runner)
        }
        guard let (wasStarted, transfer, runner) = found else { return }
        resumeWaiters()
        if wasStarted {
            transfer?.cancel()
            runner?.cancel()
            mutable.withLock { $0.pendingWait }?.cancel()
        } else {
            hooks.cancelBeforeStart(self)
        }
    }

    // MARK: Session side

    /// Whether the task was cancelled.
    var isCanceling: Bool { mutable.withLock { $0.state == .canceling } }

    /// Whether ``resume()`` ever started it.
    var hasStarted: Bool { mutable.withLock { $0.started } }

    /// Makes `transfer` the one in flight; `false` (and the caller cancels it) when the task was
    /// cancelled meanwhile. A transfer attached while the task is suspended starts suspended.
    func attach(_ transfer: HTTPTransfer, request: HTTPRequest) -> Bool {
        let state = mutable.withLock { task -> State in
            task.currentRequest = request
            task.uploadProgress = TransferProgress(completed: 0, total: request.body.length)
            task.downloadProgress = TransferProgress(completed: 0, total: nil)
            if task.state != .canceling { task.transfer = transfer }
            return task.state
        }
        if state == .suspended { transfer.suspend() }
        return state != .canceling
    }

    /// The transfer in flight ended.
    func detachTransfer() {
        mutable.withLock { $0.transfer = nil }
    }

    func record(response: HTTPResponse) {
        mutable.withLock { $0.response = response }
    }

    func record(upload progress: TransferProgress) {
        let streams = mutable.withLock { task in
            task.uploadProgress = progress
            // Most tasks have no progress sequence: no array is built for them.
            return task.progressStreams.isEmpty
                ? [] : task.progressStreams.values.filter { $0.direction == .upload }.map(\.continuation)
        }
        for stream in streams { stream.yield(progress) }
    }

    func record(download progress: TransferProgress) {
        let streams = mutable.withLock { task in
            task.downloadProgress = progress
            // Most tasks have no progress sequence: no array is built for them.
            return task.progressStreams.isEmpty
                ? [] : task.progressStreams.values.filter { $0.direction == .download }.map(\.continuation)
        }
        for stream in streams { stream.yield(progress) }
    }

    /// Every progress value of one direction from now on, in order; the sequence ends when the task
    /// completes (at once for a completed task). Values of a retried attempt or a redirect hop start
    /// again from zero, as the transfer does.
    ///
    /// ```swift
    /// for await progress in task.progressUpdates(.download) {
    ///     print(progress.fraction.map { "\(Int($0 * 100))%" } ?? "\(progress.completed) bytes")
    /// }
    /// ```
    /// - Parameter direction: Upload or download.
    /// - Returns: The progress values, newest kept when the reader falls behind (up to 64).
    public func progressUpdates(_ direction: ProgressDirection) -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let identifier: Int? = mutable.withLock { task in
            guard task.state != .completed else { return nil }
            defer { task.nextStreamIdentifier += 1 }
            task.progressStreams[task.nextStreamIdentifier] = (direction, continuation)
            return task.nextStreamIdentifier
        }
        guard let identifier else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.mutable.withLock { _ = $0.progressStreams.removeValue(forKey: identifier) }
        }
        return stream
    }

    /// Marks the task done; `false` when it already was.
    func markCompleted(error: SessionError?) -> Bool {
        let streams: [AsyncStream<TransferProgress>.Continuation]? = mutable.withLock { task in
            guard task.state != .completed else { return nil }
            task.state = .completed
            task.error = error
            task.transfer = nil
            defer { task.progressStreams = [:] }
            return task.progressStreams.values.map(\.continuation)
        }
        guard let streams else { return false }
        for stream in streams { stream.finish() }
        return true
    }

    private let waiters = Lock<[CheckedContinuation<Void, Never>]>([])

    /// Sleeps until `deadline` on `clock`; false when the task, or the calling Swift task, was
    /// cancelled first. The sleep runs in a task of its own that ``cancel()`` reaches, so a
    /// runner running in its caller's task still ends a retry delay at once when cancelled.
    func sleep(until deadline: ContinuousClock.Instant, on clock: any SessionClock) async -> Bool {
        let sleeper = Task { try await clock.sleep(until: deadline) }
        let canceling = mutable.withLock { task -> Bool in
            guard task.state != .canceling else { return true }
            task.pendingWait = sleeper
            return false
        }
        if canceling { sleeper.cancel() }
        let slept = await withTaskCancellationHandler {
            await sleeper.result
        } onCancel: {
            sleeper.cancel()
        }
        mutable.withLock { $0.pendingWait = nil }
        if case .failure = slept { return false }
        return true
    }

    /// Returns once the task is not suspended (running, cancelled or done).
    func waitWhileSuspended() async {
        // Nearly every attempt finds the task running: no continuation (and its allocation) then.
        guard mutable.withLock({ $0.state == .suspended }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let parked = waiters.withLock { waiting in
                guard mutable.withLock({ $0.state == .suspended }) else { return false }
                waiting.append(continuation)
                return true
            }
            if !parked { continuation.resume() }
        }
    }

    private func resumeWaiters() {
        let waiting = waiters.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    // MARK: Identity

    /// Tasks are equal when they are the same task.
    public static func == (lhs: SessionTask, rhs: SessionTask) -> Bool { lhs === rhs }

    /// Hashes the task's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `"task 3 (running) GET https://example.com/"`
    public var description: String { "task \(taskIdentifier) (\(state)) \(currentRequest)" }
}
