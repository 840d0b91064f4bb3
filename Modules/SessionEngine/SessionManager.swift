public import CourierHTTP
internal import CourierLocking
public import CourierSerialization
public import CourierSessionCore
public import CourierTransport
public import Dispatch
public import FoundationEssentials
internal import Synchronization

/// AFNetworking's `AFURLSessionManager` over any `HTTPTransport`: tasks with per-task progress and
/// completion, a registry of live tasks, interceptors, redirects and events.
///
/// Each task's attempts and redirect hops run in a task of their own; the response serializer runs
/// there too, off the transport's thread; completion handlers run on ``completionQueue`` within
/// ``completionGroup``. Every callback API has an async twin that does not use the queue.
///
/// ```swift
/// let session = SessionManager(transport: CurlTransport(), interceptor: RetryPolicy())
/// let response = try await session.data(for: HTTPRequest(url: URL(string: "https://example.com/")!))
/// print(response.response?.status ?? "-", response.data?.count ?? 0)
/// ```
///
/// A session given a transport does not own it: ``shutdown()`` ends the session's tasks, and the
/// transport is shut down by whoever made it (a session made with a transport factory owns it). A session dropped without ``shutdown()`` lets its
/// running tasks finish, then releases everything.
public final class SessionManager: HTTPSession {
    /// The transport every task's transfers go through (a new one after a reset).
    public var transport: any HTTPTransport { state.withLock { $0.transport } }
    /// The session's settings.
    public let configuration: SessionConfiguration
    /// The adapters and retriers applied to every task, when any.
    public let interceptor: (any RequestInterceptor)?
    /// What the session does with redirects.
    public let redirectHandler: any RedirectHandling
    /// Where completion handlers and progress closures run.
    public let completionQueue: DispatchQueue
    /// The group completion handlers run in.
    public let completionGroup: DispatchGroup
    private let eventMonitors: [any EventMonitor]
    private let eventQueue: DispatchQueue

    /// Makes the transport, for a session that owns it and can be reset; `nil` otherwise.
    private let makeTransport: (@Sendable () throws -> any HTTPTransport)?

    private struct State {
        var transport: any HTTPTransport
        var nextIdentifier = 0
        var tasks: [Int: SessionTask] = [:]
        var invalidated = false
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
        var nextStreamIdentifier = 0
        var streams: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
        /// Tasks that report to the session until it is invalidated (reachability observations).
        var observations: [Task<Void, Never>] = []
    }

    private let state: Lock<State>
    /// Whether monitors or streams listen, readable without the lock.
    let listeners: EventListeners
    /// Where the session's tasks and runners send events: one sink for all of them, made once.
    let sink: EventSink
    /// The open WebSockets, which an invalidation that cancels tasks closes with 1001.
    let webSockets = WebSocketRegistry()

    /// Creates a session.
    ///
    /// ```swift
    /// let session = SessionManager(transport: MockTransport(), redirectHandler: Redirector.doNotFollow)
    /// ```
    /// - Parameters:
    ///   - transport: The transport for every transfer.
    ///   - configuration: Queues, redirect limits and the whole-call deadline.
    ///   - interceptor: Adapters and retriers for every task; `nil` for none (no retries).
    ///   - redirectHandler: What to do with redirects; follows them by default.
    ///   - eventMonitors: Monitors that receive every event, in order.
    public convenience init(
        transport: any HTTPTransport,
        configuration: SessionConfiguration = SessionConfiguration(),
        interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: any RedirectHandling = Redirector.follow,
        eventMonitors: [any EventMonitor] = []
    ) {
        self.init(
            transport: transport,
            makeTransport: nil,
            configuration: configuration,
            interceptor: interceptor,
            redirectHandler: redirectHandler,
            eventMonitors: eventMonitors
        )
    }

    /// Creates a session that makes, owns and can replace its transport: ``shutdown()`` shuts the
    /// transport down, and ``invalidate(cancelingTasks:resetSession:)`` can start over with a new
    /// one (AFNetworking's reset).
    ///
    /// ```swift
    /// let session = try SessionManager(makeTransport: { CurlTransport() }, interceptor: RetryPolicy())
    /// ```
    /// - Parameters:
    ///   - makeTransport: Makes a transport; called now and at each reset.
    ///   - configuration: Queues, redirect limits and the whole-call deadline.
    ///   - interceptor: Adapters and retriers for every task.
    ///   - redirectHandler: What to do with redirects.
    ///   - eventMonitors: Monitors that receive every event.
    /// - Throws: What `makeTransport` throws.
    public convenience init(
        makeTransport: @escaping @Sendable () throws -> any HTTPTransport,
        configuration: SessionConfiguration = SessionConfiguration(),
        interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: any RedirectHandling = Redirector.follow,
        eventMonitors: [any EventMonitor] = []
    ) throws {
        self.init(
            transport: try makeTransport(),
            makeTransport: makeTransport,
            configuration: configuration,
            interceptor: interceptor,
            redirectHandler: redirectHandler,
            eventMonitors: eventMonitors
        )
    }

    private init(
        transport: any HTTPTransport,
        makeTransport: (@Sendable () throws -> any HTTPTransport)?,
        configuration: SessionConfiguration,
        interceptor: (any RequestInterceptor)?,
        redirectHandler: any RedirectHandling,
        eventMonitors: [any EventMonitor]
    ) {
        state = Lock(State(transport: transport))
        self.makeTransport = makeTransport
        self.configuration = configuration
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
        self.eventMonitors = eventMonitors
        let listeners = EventListeners(hasMonitors: !eventMonitors.isEmpty)
        self.listeners = listeners
        sink = EventSink(listeners: listeners) { event in listeners.deliver(event) }
        completionQueue = configuration.completionQueue ?? DispatchQueue(label: "courier.session.completion")
        completionGroup = configuration.completionGroup ?? DispatchGroup()
        eventQueue = DispatchQueue(label: "courier.session.events")
        listeners.attach(self)
    }

    /// The live tasks (created and not yet completed), by identifier order.
    public var tasks: [SessionTask] {
        state.withLock { $0.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier } }
    }

    /// Whether the session was invalidated: new tasks fail at once.
    public var isInvalidated: Bool { state.withLock { $0.invalidated } }

    /// `nil`: a session manager resolves no URL strings against a base (``HTTPSessionManager`` does).
    public var baseURL: URL? { nil }

    /// The form serializer (`HTTPRequestSerializer`), for the calls with a method and a URL string.
    public var requestSerializer: any EncodableRequestSerializing { formSerializer }

    /// Made once, as ``HTTPSessionManager`` makes its own: a new one per call read the platform's
    /// languages and the process's identity again for every request.
    private let formSerializer = HTTPRequestSerializer()

    // MARK: Data tasks

    /// Makes a data task that serializes its response with `serializer`; call
    /// ``SessionTask/resume()`` to start it.
    ///
    /// ```swift
    /// let task = session.dataTask(with: request, serializer: JSONResponseSerializer()) { response in
    ///     if let json = response.value { print(json) }
    /// }
    /// task.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - serializer: Validates and decodes the final response, off the transport's thread.
    ///   - options: How the body is received; streamed by default.
    ///   - uploadProgress: Called on ``completionQueue`` as the body is sent.
    ///   - downloadProgress: Called on ``completionQueue`` as the response arrives.
    ///   - completion: Called once on ``completionQueue`` within ``completionGroup``.
    /// - Returns: The task, suspended.
    public func dataTask<Serializer: ResponseSerializing>(
        with request: HTTPRequest,
        serializer: Serializer,
        options: TransferOptions = TransferOptions(),
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        let group = completionGroup
        let queue = completionQueue
        let progress = TaskProgressHandlers(
            upload: onCompletionQueue(uploadProgress) ?? { _ in },
            download: onCompletionQueue(downloadProgress) ?? { _ in }
        )
        return makeTask(request: request, serializer: serializer, options: options, progress: progress) { response in
            queue.async(group: group) { completion(response) }
        }
    }

    /// Makes a data task whose value is the body as received (validated with AFNetworking's default
    /// acceptable statuses, 200–299); call ``SessionTask/resume()`` to start it.
    ///
    /// ```swift
    /// session.dataTask(with: request) { response in print(response.data?.count ?? 0) }.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - uploadProgress: Called on ``completionQueue`` as the body is sent.
    ///   - downloadProgress: Called on ``completionQueue`` as the response arrives.
    ///   - completion: Called once on ``completionQueue`` within ``completionGroup``.
    /// - Returns: The task, suspended.
    public func dataTask(
        with request: HTTPRequest,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Data>) -> Void
    ) -> SessionTask {
        dataTask(
            with: request,
            serializer: DataResponseSerializer(),
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress,
            completion: completion
        )
    }

    /// Sends `request` and returns what it ended with, the error included; cancelling the calling
    /// task cancels the session task.
    ///
    /// ```swift
    /// let response = await session.response(for: request, serializer: DecodableResponseSerializer<User>())
    /// if let user = response.value { greet(user) } else { report(response.error) }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - serializer: Validates and decodes the final response.
    ///   - options: How the body is received.
    /// - Returns: The response, value, error and metrics.
    public func response<Serializer: ResponseSerializing>(
        for request: HTTPRequest,
        serializer: Serializer,
        options: RequestOptions
    ) async -> DataResponse<Serializer.Output> {
        // Only the serializer's call and the typed response are generic: the task runs in the
        // non-generic `runInCaller`, which judges through this frame's closure. Called through the
        // `HTTPSession` witness, this function is not specialised, and each generic value it
        // touches costs a metadata lookup.
        var serialized: SerializedResponse<Serializer.Output>?
        let (result, error) = await runInCaller(request: request, options: options) { response, body, request in
            let judged = serializer.serializedResponse(response: response, data: body, request: request)
            serialized = judged
            return judged.error
        }
        return DataResponse(
            request: result.request,
            response: result.response,
            data: result.body,
            // As AFNetworking skips the serializer after a failed transfer, such a task has no value.
            value: result.error == nil ? serialized?.value : nil,
            error: error,
            metrics: result.metrics,
            redirects: result.redirects,
            retryCount: result.retryCount,
            cacheDisposition: result.cacheDisposition
        )
    }

    /// Registers a task and runs it here, in the caller's task: no task of its own to create, and
    /// one hop fewer before the response (the transfer's events are still drained on the
    /// transport's executor). The caller's cancellation reaches it directly; the task's `cancel()`
    /// ends the transfer and a retry delay (`SessionTask.sleep`). Returns the task's outcome and
    /// the error it completed with (the serializer's refusal included); `judge` saw the final
    /// response last, unless the transfer failed.
    private func runInCaller(
        request: HTTPRequest,
        options: RequestOptions,
        judging judge: (_ response: HTTPResponse?, _ body: Data?, _ request: HTTPRequest) -> SerializationError?
    ) async -> (TaskRunner.Result, SessionError?) {
        let request = limitingInMemoryBody(of: request, options: options.transfer, streamed: false)
        // Whoever resumes the task, its caller runs it, and a cancel before the start leaves the
        // completion to the caller too: the hooks capture nothing.
        let (task, invalidated) = register(
            request: request,
            hooks: SessionTask.Hooks(start: { _ in nil }, report: sink, cancelBeforeStart: { _ in })
        )
        if invalidated {
            let result = TaskRunner.Result.invalidated(request)
            finishTask(task, result, error: result.error) {}
            return (result, result.error)
        }
        return await withTaskCancellationHandler {
            var refusal: SerializationError?
            let result: TaskRunner.Result
            if task.resumeReportingStart() {
                let runner = runner(
                    for: task,
                    options: options.transfer,
                    progress: .none,
                    perRequest: PerRequestHandlers(options)
                )
                result = await runner.run { response, body, request in
                    refusal = judge(response, body, request)
                    return refusal
                }
            } else {
                result = .cancelled(request)
            }
            var error = result.error
            if error == nil {
                // A response served from the cache was not judged on the way.
                if !result.judged { refusal = judge(result.response, result.body, result.request) }
                error = refusal.map { SessionError.serialization($0, result: result) }
            }
            finishTask(task, result, error: error) {}
            return (result, error)
        } onCancel: {
            task.cancel()
        }
    }

    // MARK: Events

    /// A new stream of every event from now on, in order; it ends when the session is invalidated.
    ///
    /// ```swift
    /// Task { for await event in session.events() { log(event.kind) } }
    /// ```
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let identifier: Int? = state.withLock { state in
            guard !state.invalidated else { return nil }
            defer { state.nextStreamIdentifier += 1 }
            state.streams[state.nextStreamIdentifier] = continuation
            listeners.streamCount.store(state.streams.count, ordering: .relaxed)
            return state.nextStreamIdentifier
        }
        guard let identifier else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                state.streams.removeValue(forKey: identifier)
                listeners.streamCount.store(state.streams.count, ordering: .relaxed)
            }
        }
        return stream
    }

    /// `handler`, called on the completion queue; `nil` without a handler.
    func onCompletionQueue(
        _ handler: (@Sendable (TransferProgress) -> Void)?
    ) -> (@Sendable (TransferProgress) -> Void)? {
        guard let handler else { return nil }
        let queue = completionQueue
        return { value in queue.async { handler(value) } }
    }

    /// Whether a monitor or an event stream listens (read without the lock, on every event).
    var hasListeners: Bool { listeners.isListening }

    func report(_ event: @autoclosure () -> SessionEvent) {
        guard hasListeners else { return }
        let event = event()
        let streams = state.withLock { $0.streams.isEmpty ? [] : Array($0.streams.values) }
        eventQueue.async { [self] in
            for monitor in eventMonitors { monitor.session(self, didReceive: event) }
            for stream in streams { stream.yield(event) }
        }
    }

    /// Keeps `observation` until invalidation; `false` when the session is already invalidated.
    func addObservation(_ observation: Task<Void, Never>) -> Bool {
        state.withLock { state in
            guard !state.invalidated else { return false }
            state.observations.append(observation)
            return true
        }
    }

    // MARK: Invalidation

    /// Stops taking tasks and, when `cancelingTasks`, cancels those in flight; returns once every
    /// task has completed and every event monitor has received every event
    /// (AFNetworking's `invalidateSessionCancelingTasks:`).
    ///
    /// ```swift
    /// await session.invalidate(cancelingTasks: false)  // let running tasks finish first
    /// ```
    /// - Parameter cancelingTasks: Whether to cancel the tasks in flight.
    public func invalidate(cancelingTasks: Bool) async {
        let (wasValid, live) = state.withLock { state -> (Bool, [SessionTask]) in
            defer { state.invalidated = true }
            return (!state.invalidated, Array(state.tasks.values))
        }
        if cancelingTasks {
            for task in live { task.cancel() }
            await webSockets.closeAll()
        } else {
            // Tasks never resumed would wait forever: they are cancelled either way.
            for task in live where task.state == .suspended && !task.hasStarted { task.cancel() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                guard !state.tasks.isEmpty else { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        if wasValid {
            let observations = state.withLock { state in
                defer { state.observations = [] }
                return state.observations
            }
            for observation in observations { observation.cancel() }
            report(SessionEvent(.sessionInvalidated))
            let streams = state.withLock { state in
                defer {
                    state.streams = [:]
                    listeners.streamCount.store(0, ordering: .relaxed)
                }
                return Array(state.streams.values)
            }
            eventQueue.async {
                for stream in streams { stream.finish() }
            }
        }
        // Events go out on the event queue: once it has run up to here, every monitor has seen
        // every event, the invalidation included, before this call returns.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            eventQueue.async { continuation.resume() }
        }
    }

    /// Invalidates the session as ``invalidate(cancelingTasks:)`` does and, when `resetSession`,
    /// starts over with a new transport from the session's factory, so that the same session takes
    /// tasks again (AFNetworking's `invalidateSessionCancelingTasks:resetSession:`). The old
    /// transport is shut down once its tasks have completed.
    ///
    /// ```swift
    /// try await session.invalidate(cancelingTasks: true, resetSession: true)
    /// let response = try await session.data(for: request)  // runs on the new transport
    /// ```
    /// - Parameters:
    ///   - cancelingTasks: Whether to cancel the tasks in flight.
    ///   - resetSession: Whether to start over with a new transport.
    /// - Throws: `SessionError` of kind `SessionError.Kind.resetUnavailable` when the session
    ///   was given a transport rather than a way to make one (it stays invalidated), or the
    ///   transport factory's failure.
    public func invalidate(cancelingTasks: Bool, resetSession: Bool) async throws(SessionError) {
        await invalidate(cancelingTasks: cancelingTasks)
        guard resetSession else { return }
        guard let makeTransport else {
            throw SessionError(
                kind: .resetUnavailable,
                message: "the session was given a transport, not a way to make one, so it cannot be reset",
                failingURL: nil
            )
        }
        await transport.shutdown()
        let fresh: any HTTPTransport
        do {
            fresh = try makeTransport()
        } catch {
            throw SessionError(
                kind: .resetUnavailable,
                message: "the transport factory failed: \(error)",
                failingURL: nil,
                underlying: error
            )
        }
        state.withLock { state in
            state.transport = fresh
            state.invalidated = false
        }
        webSockets.reopen()
    }

    /// Cancels every task and invalidates the session; returns when they have completed. Safe to
    /// call more than once. A transport the session was given is not shut down (its owner does
    /// that); one the session made is.
    ///
    /// ```swift
    /// await session.shutdown()
    /// await transport.shutdown()
    /// ```
    public func shutdown() async {
        await invalidate(cancelingTasks: true)
        if makeTransport != nil { await transport.shutdown() }
    }

    // MARK: Tasks

    /// The next task identifier (WebSockets take theirs from the same count, so that an event's
    /// identifier names one thing), or `nil` once the session is invalidated.
    func reserveIdentifier() -> Int? {
        state.withLock { state in
            guard !state.invalidated else { return nil }
            defer { state.nextIdentifier += 1 }
            return state.nextIdentifier
        }
    }

    /// Registers a task whose outcome goes to `finish` (after its attempts, when it is cancelled
    /// before it starts, or at once when the session was invalidated).
    func makeTask(
        request: HTTPRequest,
        options: TransferOptions,
        progress: TaskProgressHandlers,
        bodyChannel: ResponseBodyChannel? = nil,
        judge: ResponseJudge = .acceptableStatus,
        perRequest: PerRequestHandlers = PerRequestHandlers(),
        finish: @escaping @Sendable (SessionTask, TaskRunner.Result) -> Void
    ) -> SessionTask {
        let judge = bodyChannel == nil ? judge : .acceptingEverything
        return makeTask(
            request: request,
            options: options,
            progress: progress,
            bodyChannel: bodyChannel,
            perRequest: perRequest,
            run: { task, runner in finish(task, await runner.run(judging: judge.evaluate)) },
            finish: finish
        )
    }

    /// Registers a task that `run` runs (in a task of its own, once resumed) with the runner made
    /// for it; `finish` gets the outcome of a task cancelled before it started, or at once of one
    /// made after the session was invalidated.
    private func makeTask(
        request: HTTPRequest,
        options: TransferOptions,
        progress: TaskProgressHandlers,
        bodyChannel: ResponseBodyChannel?,
        perRequest: PerRequestHandlers,
        run: @escaping @Sendable (SessionTask, TaskRunner) async -> Void,
        finish: @escaping @Sendable (SessionTask, TaskRunner.Result) -> Void
    ) -> SessionTask {
        let request = limitingInMemoryBody(of: request, options: options, streamed: bodyChannel != nil)
        let hooks = SessionTask.Hooks(
            start: { [self] task in
                Task {
                    var runner = self.runner(for: task, options: options, progress: progress, perRequest: perRequest)
                    runner.bodyChannel = bodyChannel
                    await run(task, runner)
                }
            },
            report: sink,
            cancelBeforeStart: { task in finish(task, .cancelled(request)) }
        )
        let (task, invalidated) = register(request: request, hooks: hooks)
        if invalidated { finish(task, .invalidated(request)) }
        return task
    }

    /// A new task, registered unless the session was invalidated (then `invalidated` is true and
    /// the task is to be completed at once with ``TaskRunner/Result/invalidated(_:)``).
    private func register(request: HTTPRequest, hooks: SessionTask.Hooks) -> (task: SessionTask, invalidated: Bool) {
        state.withLock { state in
            defer { state.nextIdentifier += 1 }
            let task = SessionTask(identifier: state.nextIdentifier, request: request, hooks: hooks)
            if !state.invalidated { state.tasks[state.nextIdentifier] = task }
            return (task, state.invalidated)
        }
    }

    /// `request` with the session's in-memory body limit when its body will be collected in
    /// memory (not streamed, not written to a file) and it has no limit of its own.
    private func limitingInMemoryBody(of request: HTTPRequest, options: TransferOptions, streamed: Bool) -> HTTPRequest
    {
        guard !streamed, case .stream = options.destination, request.maximumResponseBodySize == nil else {
            return request
        }
        var limited = request
        limited.maximumResponseBodySize = configuration.maximumInMemoryResponseBodySize
        return limited
    }

    private func makeTask<Serializer: ResponseSerializing>(
        request: HTTPRequest,
        serializer: Serializer,
        options: TransferOptions,
        progress: TaskProgressHandlers,
        perRequest: PerRequestHandlers = PerRequestHandlers(),
        deliver: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        // The runner judges each response with the serializer before it asks retriers; the final
        // judgement is kept, so the serializer runs once per response. It is kept in the running
        // task's own frame: no lock, no box of a generic value.
        makeTask(
            request: request,
            options: options,
            progress: progress,
            bodyChannel: nil,
            perRequest: perRequest,
            run: { [self] task, runner in
                var serialized: SerializedResponse<Serializer.Output>?
                let result = await runner.run { response, body, request in
                    let judged = serializer.serializedResponse(response: response, data: body, request: request)
                    serialized = judged
                    return judged.error
                }
                complete(
                    task,
                    result,
                    serializer: serializer,
                    judged: result.judged ? serialized : nil,
                    deliver: deliver
                )
            },
            finish: { [self] task, result in
                complete(task, result, serializer: serializer, judged: nil, deliver: deliver)
            }
        )
    }

    private func runner(
        for task: SessionTask,
        options: TransferOptions,
        progress: TaskProgressHandlers,
        perRequest: PerRequestHandlers
    ) -> TaskRunner {
        TaskRunner(
            task: task,
            transport: transport,
            options: options,
            interceptor: perRequest.interceptor(composedWith: interceptor),
            redirectHandler: perRequest.redirectHandler ?? redirectHandler,
            configuration: configuration,
            progress: progress,
            report: sink
        )
    }

    /// Serializes the outcome (unless the transfer failed, as AFNetworking skips the serializer
    /// then), marks the task completed, unregisters it and delivers the response.
    private func complete<Serializer: ResponseSerializing>(
        _ task: SessionTask,
        _ result: TaskRunner.Result,
        serializer: Serializer,
        judged: SerializedResponse<Serializer.Output>?,
        deliver: @Sendable (DataResponse<Serializer.Output>) -> Void
    ) {
        var error = result.error
        var value: Serializer.Output?
        if error == nil {
            let serialized =
                judged
                ?? serializer.serializedResponse(
                    response: result.response,
                    data: result.body,
                    request: result.request
                )
            value = serialized.value
            error = serialized.error.map { SessionError.serialization($0, result: result) }
        }
        finishTask(task, result, error: error) {
            deliver(
                DataResponse(
                    request: result.request,
                    response: result.response,
                    data: result.body,
                    value: value,
                    error: error,
                    metrics: result.metrics,
                    redirects: result.redirects,
                    retryCount: result.retryCount,
                    cacheDisposition: result.cacheDisposition
                )
            )
        }
    }

    /// Marks the task completed, unregisters it, reports it and runs `deliver`; does nothing for a
    /// task that already completed.
    func finishTask(_ task: SessionTask, _ result: TaskRunner.Result, error: SessionError?, deliver: () -> Void) {
        guard task.markCompleted(error: error) else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.tasks.removeValue(forKey: task.taskIdentifier)
            guard state.tasks.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        report(
            {
                var event = SessionEvent(
                    .taskCompleted,
                    task: task.taskIdentifier,
                    request: result.request,
                    response: result.response,
                    error: error
                )
                event.cacheDisposition = result.cacheDisposition
                return event
            }()
        )
        deliver()
        for waiter in waiters { waiter.resume() }
    }
}

extension SessionError {
    /// A serializer's (or validator's) failure for the outcome `result`.
    static func serialization(_ failure: SerializationError, result: TaskRunner.Result) -> SessionError {
        .serialization(failure, request: result.request, response: result.response, data: result.body)
    }
}

/// Hands one value from a completion callback to one awaiting caller. The continuation is an
/// unsafe one (fixed layout, no metadata lookup per copy of a generic value); it is taken out under
/// the lock before it is resumed, so it is resumed exactly once.
final class CompletionBox<Value: Sendable>: Sendable {
    private let state = Lock<(value: Value?, waiter: UnsafeContinuation<Value, Never>?)>((nil, nil))

    func deliver(_ value: Value) {
        let waiter = state.withLock { state -> UnsafeContinuation<Value, Never>? in
            guard let waiter = state.waiter else {
                state.value = value
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: value)
    }

    /// Parks until the value arrives; `start` runs once the caller is parked.
    func wait(then start: () -> Void) async -> Value {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Value, Never>) in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
            } else {
                start()
            }
        }
    }
}
