internal import CourierHTTP
internal import CourierSerialization
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// Runs one task's attempts and redirect hops as named steps: adapt, look up the cache, send and
/// read (redirects are resolved as their heads arrive), receive into the cache, judge, decide on a
/// retry, wait. ``run()`` drives them; each step is a method of its own.
struct TaskRunner: Sendable {
    let task: SessionTask
    let transport: any HTTPTransport
    let options: TransferOptions
    /// The request's interceptor composed with the session's, in Alamofire's order.
    let interceptor: (any RequestInterceptor)?
    /// The request's redirect handler, else the session's (Alamofire's precedence).
    let redirectHandler: any RedirectHandling
    let configuration: SessionConfiguration
    let progress: TaskProgressHandlers
    /// Set for a streamed task: the final head and body go there, and nothing is retried once the
    /// head went out.
    var bodyChannel: ResponseBodyChannel?
    let report: EventSink
    /// The adapt and retry steps, as a WebSocket's handshake takes them too: made once, not at
    /// each step.
    private let interception: AttemptInterception

    init(
        task: SessionTask,
        transport: any HTTPTransport,
        options: TransferOptions,
        interceptor: (any RequestInterceptor)?,
        redirectHandler: any RedirectHandling,
        configuration: SessionConfiguration,
        progress: TaskProgressHandlers,
        report: EventSink
    ) {
        self.task = task
        self.transport = transport
        self.options = options
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
        self.configuration = configuration
        self.progress = progress
        self.report = report
        interception = AttemptInterception(interceptor: interceptor, configuration: configuration)
    }

    /// What the task ended with, before serialization.
    struct Result: Sendable {
        var request: HTTPRequest
        var response: HTTPResponse?
        var body: Data?
        var error: SessionError?
        var metrics: [TransferMetrics] = []
        var redirects: [HTTPResponse] = []
        var retryCount = 0
        var cacheDisposition: CacheDisposition?
        /// Whether ``ResponseJudge`` judged the final response (so the serializer need not run again).
        var judged = false

        /// The outcome of a task cancelled before it started.
        static func cancelled(_ request: HTTPRequest) -> Result {
            var result = Result(request: request)
            result.error = .cancelled(request.url)
            return result
        }

        /// The outcome of a task made after its session was invalidated.
        static func invalidated(_ request: HTTPRequest) -> Result {
            var result = Result(request: request)
            result.error = SessionError(
                kind: .sessionInvalidated,
                message: "the session was invalidated",
                failingURL: request.url
            )
            return result
        }
    }

    /// What the loop carries from one attempt to the next.
    struct Progress: Sendable {
        var request: HTTPRequest
        var result: Result
        /// The URLs requested so far, in order: the error at the redirect limit lists them. Empty
        /// until the first redirect, for the original request alone (most tasks follow none, and
        /// need no array).
        var visited: [URL]
        /// Set after a `304` that matched nothing stored: the next attempt goes without conditions.
        var bypassCache = false
        let deadline: ContinuousClock.Instant?

        func context(for taskIdentifier: Int) -> AttemptContext {
            AttemptContext(
                taskIdentifier: taskIdentifier,
                retryCount: result.retryCount,
                redirectCount: result.redirects.count
            )
        }
    }

    /// What a step tells the loop.
    enum Step: Sendable {
        /// Go on with the next attempt or hop.
        case again
        /// The task is over.
        case finished
    }

    /// The cache this task consults: the session's, unless the body does not pass through the
    /// session in one piece (a streamed or downloaded response).
    private var cache: (any ResponseCaching)? {
        guard bodyChannel == nil, case .stream = options.destination else { return nil }
        return configuration.cache
    }

    /// How a complete response is judged: the serializer's refusal, or `nil` when it accepts it.
    typealias Judging = (_ response: HTTPResponse, _ body: Data?, _ request: HTTPRequest) -> SerializationError?

    /// Runs the task, judging each complete response with `judge` (the task's serializer) before
    /// retriers are asked: a caller that runs the task in its own frame judges there, where the
    /// serializer's output type is known, and keeps the value itself (no lock, no box of a generic
    /// value).
    func run(judging judge: Judging) async -> Result {
        let request = task.originalRequest
        var progress = Progress(
            request: request,
            result: Result(request: request),
            visited: [],
            deadline: interception.deadlineFromNow()
        )
        while case .again = await attempt(&progress, judging: judge) {}
        return progress.result
    }

    /// One attempt or redirect hop, step by step, complete responses judged by `judge`.
    func attempt(_ progress: inout Progress, judging judge: Judging) async -> Step {
        // One look at the state for the common case, a running task: no wait to set up.
        var state = task.state
        if state == .suspended {
            await task.waitWhileSuspended()
            state = task.state
        }
        if state == .canceling { return fail(&progress, .cancelled(progress.request.url)) }
        let context = progress.context(for: task.taskIdentifier)
        let adapted: HTTPRequest
        switch await adapt(progress.request, context: context, deadline: progress.deadline) {
        case .success(let request): adapted = request
        case .failure(let error): return fail(&progress, error)
        }
        progress.result.request = adapted
        var sent = adapted
        var revalidating: CachedResponse?
        // Without a cache there is nothing to look up: no step to await, no request to pass around.
        if cache != nil {
            switch await lookUp(adapted, bypassing: progress.bypassCache) {
            case .send(let request, let stored):
                sent = request
                revalidating = stored
                progress.result.request = request
            case .served(let stored):
                served(stored, for: adapted, into: &progress.result)
                return .finished
            case .failed(let error):
                return fail(&progress, error)
            }
        }
        progress.bypassCache = false
        guard let outcome = await send(sent, progress: progress) else {
            return fail(&progress, .cancelled(sent.url))
        }
        if let metrics = outcome.metrics { progress.result.metrics.append(metrics) }
        if task.isCanceling && !keepsOutcome(outcome) {
            // Cancelling also cancels this Swift task, which can end the event loop before the
            // transfer's own terminal event: short of a finished transfer, the task was cancelled.
            progress.result.response = outcome.followedRedirect == nil ? outcome.response : nil
            return fail(&progress, .cancelled(adapted.url))
        }
        if let (response, next) = outcome.followedRedirect {
            progress.result.redirects.append(response)
            if progress.visited.isEmpty { progress.visited = [task.originalRequest.url] }
            progress.visited.append(next.url)
            report(SessionEvent(.redirectFollowed, task: task.taskIdentifier, request: next, response: response))
            progress.request = next
            return .again
        }
        let failure: AttemptFailure
        switch await receive(outcome, for: adapted, revalidating: revalidating, deadline: progress.deadline) {
        case .ended(let error, let response):
            progress.result.response = response
            return fail(&progress, error)
        case .resendUnconditionally:
            progress.bypassCache = true
            return .again
        case .accepted(let response, let body, let disposition):
            progress.result.response = response
            progress.result.body = body
            progress.result.cacheDisposition = disposition ?? progress.result.cacheDisposition
            progress.result.error = nil
            // A streamed head (and maybe body) already reached the caller: it cannot be taken back.
            if bodyChannel?.hasHead == true { return .finished }
            progress.result.judged = true
            guard let refused = judgement(of: response, body: body, for: adapted, judging: judge) else {
                return .finished
            }
            failure = refused
        case .failed(let transportFailure):
            progress.result.response = transportFailure.response
            progress.result.body = transportFailure.body
            progress.result.error = transportFailure.error
            progress.result.judged = false
            if bodyChannel?.hasHead == true { return .finished }
            failure = transportFailure
        }
        return await retryOrFinish(after: failure, of: adapted, context: context, progress: &progress)
    }

    // MARK: Steps

    /// Step 1: the interceptors' adapters, then the deadline's share of the attempt's timeout.
    func adapt(
        _ request: HTTPRequest,
        context: AttemptContext,
        deadline: ContinuousClock.Instant?
    ) async -> Swift.Result<HTTPRequest, SessionError> {
        await interception.adapt(request, context: context, deadline: deadline)
    }

    /// What the cache says about an adapted request.
    enum Lookup: Sendable {
        /// Send this request (conditional when revalidating `stored`).
        case send(HTTPRequest, revalidating: CachedResponse?)
        /// Answer from the cache, sending nothing.
        case served(CachedResponse)
        /// End the task (only a stored response was allowed, and none is usable).
        case failed(SessionError)
    }

    /// Step 2: the cache lookup.
    func lookUp(_ request: HTTPRequest, bypassing: Bool) async -> Lookup {
        guard let cache, !bypassing else { return .send(request, revalidating: nil) }
        switch await cache.lookup(request) {
        case .send:
            return .send(request, revalidating: nil)
        case .serve(let stored):
            return .served(stored)
        case .revalidate(let stored, let conditional):
            return .send(conditional, revalidating: stored)
        case .notCached:
            return .failed(
                SessionError(
                    kind: .notCached,
                    message: "the request may be answered only from the cache, and nothing usable is stored",
                    failingURL: request.url
                )
            )
        }
    }

    /// Step 3: one transfer, read to its end; redirect heads are resolved as they arrive.
    /// `nil` when the task was cancelled before the transfer could be attached.
    func send(_ request: HTTPRequest, progress: Progress) async -> AttemptOutcome? {
        report(SessionEvent(.requestStarted, task: task.taskIdentifier, request: request))
        let transfer = transport.startTransfer(request, options: options)
        guard task.attach(transfer, request: request) else {
            transfer.cancel()
            for await _ in transfer.events {}
            return nil
        }
        let reader = TransferReader(
            task: task,
            report: report,
            progress: self.progress,
            drainLimit: configuration.maximumRedirectBodyDrain,
            responseDisposition: configuration.responseDisposition,
            bodyChannel: bodyChannel
        )
        let redirects = progress.result.redirects.count
        let visited = progress.visited
        // The fast path: the events are drained on the transport's own thread (its executor), so
        // the task hops there once and back once per transfer instead of once per event; app code
        // met on the way (a redirect handler, a disposition) hops off the loop for its turn.
        let outcome = await withTaskExecutorPreference(transport.executor) {
            await reader.read(transfer, request: request) { response, location in
                await offTheTransportThread {
                    await resolve(
                        redirect: response,
                        to: location,
                        from: request,
                        followed: redirects,
                        visited: visited
                    )
                }
            }
        }
        task.detachTransfer()
        return outcome
    }

    /// What an attempt's outcome amounts to once the cache has seen it.
    enum Reception: Sendable {
        /// A complete response, as the cache leaves it.
        case accepted(HTTPResponse, body: Data?, disposition: CacheDisposition?)
        /// The transport failed.
        case failed(AttemptFailure)
        /// The task ends with this error (a refused redirect or response, the deadline, a cancel).
        case ended(SessionError, response: HTTPResponse?)
        /// A `304` matched nothing stored: send again without conditions.
        case resendUnconditionally
    }

    /// Step 4: the outcome of a transfer, through the cache.
    func receive(
        _ outcome: AttemptOutcome,
        for request: HTTPRequest,
        revalidating: CachedResponse?,
        deadline: ContinuousClock.Instant?
    ) async -> Reception {
        if let redirectError = outcome.redirectError { return .ended(redirectError, response: nil) }
        if outcome.responseRejected {
            return .ended(
                SessionError(
                    kind: .cancelled,
                    message: "the response was refused by the session's response disposition",
                    failingURL: request.url,
                    response: outcome.response
                ),
                response: outcome.response
            )
        }
        if let error = outcome.transportError {
            if task.isCanceling { return .ended(.cancelled(request.url), response: outcome.response) }
            let timedOutByDeadline =
                error.category == .timedOut && deadline.map { configuration.clock.now >= $0 } == true
            if timedOutByDeadline {
                return .ended(AttemptInterception.deadlineExceeded(request.url), response: outcome.response)
            }
            return .failed(
                .transport(
                    .transport(
                        error,
                        url: request.url,
                        response: outcome.response,
                        data: outcome.response == nil ? nil : outcome.body
                    )
                )
            )
        }
        guard let response = outcome.response else { return .ended(.cancelled(request.url), response: nil) }
        // An unfollowed redirect that carried no body has none, as Alamofire reports it.
        let body: Data? = outcome.body.isEmpty && response.status.kind == .redirection ? nil : outcome.body
        guard let cache else { return .accepted(response, body: body, disposition: nil) }
        switch await cache.receive(
            response,
            body: outcome.body,
            for: request,
            revalidating: revalidating,
            metrics: outcome.metrics
        ) {
        case .use(let final, let disposition):
            return .accepted(final.response, body: final.body, disposition: disposition)
        case .resendUnconditionally:
            return .resendUnconditionally
        }
    }

    /// Step 5: the task's serializer (`judge`) judges a complete response, as Alamofire validates
    /// before it asks retriers; `nil` when it accepts it.
    func judgement(
        of response: HTTPResponse,
        body: Data?,
        for request: HTTPRequest,
        judging judge: Judging
    ) -> AttemptFailure? {
        guard let refusal = judge(response, body, request) else { return nil }
        return .classifying(.serialization(refusal, request: request, response: response, data: body))
    }

    /// Steps 6 and 7: ask the retriers about a failure, then wait out the delay they ask for.
    func retryOrFinish(
        after failure: AttemptFailure,
        of request: HTTPRequest,
        context: AttemptContext,
        progress: inout Progress
    ) async -> Step {
        // A transfer that finished as the task was cancelled keeps its outcome, but is never tried
        // again: Alamofire's `retryOrFinish` finishes a cancelled request without asking retriers.
        if task.isCanceling { return .finished }
        switch await interception.retry(request, dueTo: failure, context: context) {
        case .finish: return .finished
        case .fail(let error): return fail(&progress, error)
        case .retry(let delay):
            // The task's own sleep: cancelling the task ends the wait.
            if let error = await wait(delay, for: request.url, deadline: progress.deadline) {
                return fail(&progress, error)
            }
        }
        progress.result.retryCount += 1
        progress.result.judged = false
        report(
            SessionEvent(
                .retryScheduled,
                task: task.taskIdentifier,
                request: progress.request,
                error: failure.error
            )
        )
        return .again
    }

    /// Waits before a retry on the session's clock; the error that ends the task instead, if any.
    func wait(_ delay: Duration, for url: URL, deadline: ContinuousClock.Instant?) async -> SessionError? {
        let clock = configuration.clock
        if let deadline, clock.now + delay >= deadline { return AttemptInterception.deadlineExceeded(url) }
        guard delay > .zero else { return nil }
        return await task.sleep(until: clock.now + delay, on: clock) ? nil : .cancelled(url)
    }

    /// Applies the redirect rules, the handler and the limit to a redirect head.
    func resolve(
        redirect response: HTTPResponse,
        to location: URL,
        from request: HTTPRequest,
        followed count: Int,
        visited: [URL]
    ) async -> RedirectResolution {
        func failure(_ reason: SessionError.RedirectFailure, _ message: String) -> RedirectResolution {
            .fail(SessionError(kind: .redirect(reason), message: message, failingURL: request.url, response: response))
        }
        let proposed: HTTPRequest
        switch RedirectRules.proposal(
            from: request,
            response: response,
            location: location,
            allowsInsecureRedirects: configuration.allowsInsecureRedirects
        ) {
        case .success(let next):
            proposed = next
        case .failure(.bodyNotReplayable):
            return failure(.bodyNotReplayable, "a \(response.status.code) redirect must send the one-shot body again")
        case .failure(let reason):
            return failure(reason, "the redirect to \(location.absoluteString) may not be followed")
        }
        let next: HTTPRequest
        switch await redirectHandler.decide(proposed: proposed, response: response, from: request) {
        case .doNotFollow:
            return .stop
        case .follow:
            next = proposed
        case .followModified(let modified):
            if let reason = RedirectRules.schemeFailure(
                from: request.url,
                to: modified.url,
                allowsInsecureRedirects: configuration.allowsInsecureRedirects
            ) {
                return failure(reason, "the redirect to \(modified.url.absoluteString) may not be followed")
            }
            next = modified
        }
        let limit = configuration.maximumRedirects
        guard count < limit else {
            let visited = visited.isEmpty ? [task.originalRequest.url] : visited
            let chain = (visited + [next.url]).map(\.absoluteString).joined(separator: " -> ")
            return failure(.tooManyRedirects(limit: limit, visited: visited), "more than \(limit) redirects: \(chain)")
        }
        return .follow(next)
    }

    /// Whether a cancel seen after `outcome` leaves the task its outcome: only a data or download
    /// task (whose body the session holds whole) that finished first. A streamed task's body is
    /// still on its way to the caller, whose cancel, or dropped body, ends the stream.
    private func keepsOutcome(_ outcome: AttemptOutcome) -> Bool {
        bodyChannel == nil && outcome.finishedBeforeCancel
    }

    // MARK: Endings

    /// Completes the task with a stored response: no transfer, no retrier.
    private func served(_ stored: CachedResponse, for request: HTTPRequest, into result: inout Result) {
        task.record(response: stored.response)
        var event = SessionEvent(
            .responseReceived,
            task: task.taskIdentifier,
            request: request,
            response: stored.response
        )
        event.cacheDisposition = .hit
        report(event)
        result.response = stored.response
        result.body = stored.body
        result.error = nil
        result.cacheDisposition = .hit
    }

    private func fail(_ progress: inout Progress, _ error: SessionError) -> Step {
        progress.result.error = error
        progress.result.judged = false
        return .finished
    }

}

/// How a task's runner judges a complete response before it asks retriers: Alamofire validates on
/// completion, and asks retriers about validation and serialization failures alike.
struct ResponseJudge: Sendable {
    /// The serializer's refusal of `response`, or `nil` when it is accepted.
    let evaluate: @Sendable (_ response: HTTPResponse, _ body: Data?, _ request: HTTPRequest) -> SerializationError?

    /// Accepts every response (a streamed task, whose body the session does not hold).
    static let acceptingEverything = ResponseJudge { _, _, _ in nil }

    /// AFNetworking's default validation on the status only (200–299), for downloads, whose body
    /// is a file.
    static let acceptableStatus = ResponseJudge { response, _, request in
        DownloadValidation.refusal(of: response, for: request)
    }
}
