internal import CourierHTTP
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// Runs one task's attempts and redirect hops: adapt, send, read, then follow, retry or finish.
struct TaskRunner: Sendable {
    let task: SessionTask
    let transport: any HTTPTransport
    let options: TransferOptions
    let interceptor: (any RequestInterceptor)?
    let redirectHandler: any RedirectHandling
    let configuration: SessionConfiguration
    let progress: TaskProgressHandlers
    /// Set for a streamed task: the final head and body go there, and nothing is retried once the
    /// head went out.
    var bodyChannel: ResponseBodyChannel?
    let report: EventSink

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
    }

    /// The cache this task consults: the session's, unless the body does not pass through the
    /// session in one piece (a streamed or downloaded response).
    private var cache: (any ResponseCaching)? {
        guard bodyChannel == nil, case .stream = options.destination else { return nil }
        return configuration.cache
    }

    func run() async -> Result {
        let deadline = configuration.deadline.map { ContinuousClock.now + $0 }
        var request = task.originalRequest
        var result = Result(request: request)
        var visited: Set<String> = [Self.key(request)]
        let cache = self.cache
        /// Set after a `304` that matched nothing stored: the next attempt goes without conditions.
        var bypassCache = false
        let reader = TransferReader(
            task: task,
            report: report,
            progress: progress,
            drainLimit: configuration.maximumRedirectBodyDrain,
            responseDisposition: configuration.responseDisposition,
            bodyChannel: bodyChannel
        )
        while true {
            await task.waitWhileSuspended()
            if task.isCanceling { return fail(&result, .cancelled(request.url)) }
            let context = AttemptContext(
                taskIdentifier: task.taskIdentifier,
                retryCount: result.retryCount,
                redirectCount: result.redirects.count
            )
            var adapted: HTTPRequest
            do {
                adapted = try await interceptor?.adapt(request, for: context) ?? request
            } catch {
                return fail(
                    &result,
                    SessionError(
                        kind: .adaptationFailed,
                        message: "a request adapter failed: \(error)",
                        failingURL: request.url,
                        underlying: error
                    )
                )
            }
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return fail(&result, Self.deadlineExceeded(request.url)) }
                adapted.timeout = min(adapted.timeout ?? remaining, remaining)
            }
            result.request = adapted
            var sent = adapted
            var revalidating: CachedResponse?
            if let cache, !bypassCache {
                switch await cache.lookup(adapted) {
                case .send:
                    break
                case .serve(let stored):
                    return served(stored, for: adapted, into: &result)
                case .revalidate(let stored, let conditional):
                    revalidating = stored
                    sent = conditional
                    result.request = conditional
                case .notCached:
                    return fail(
                        &result,
                        SessionError(
                            kind: .notCached,
                            message: "the request may be answered only from the cache, and nothing usable is stored",
                            failingURL: adapted.url
                        )
                    )
                }
            }
            bypassCache = false
            report(SessionEvent(.requestStarted, task: task.taskIdentifier, request: sent))
            let transfer = transport.startTransfer(sent, options: options)
            guard task.attach(transfer, request: sent) else {
                transfer.cancel()
                for await _ in transfer.events {}
                return fail(&result, .cancelled(sent.url))
            }
            let outcome = await reader.read(transfer, request: sent) { response, location in
                await resolve(
                    redirect: response,
                    to: location,
                    from: sent,
                    visited: visited,
                    count: result.redirects.count
                )
            }
            task.detachTransfer()
            if let metrics = outcome.metrics { result.metrics.append(metrics) }
            if task.isCanceling {
                // Cancelling also cancels this Swift task, which can end the event loop before the
                // transfer's own terminal event: whatever arrived, the task was cancelled.
                result.response = outcome.followedRedirect == nil ? outcome.response : nil
                return fail(&result, .cancelled(adapted.url))
            }

            if let (response, next) = outcome.followedRedirect {
                result.redirects.append(response)
                visited.insert(Self.key(next))
                report(SessionEvent(.redirectFollowed, task: task.taskIdentifier, request: next, response: response))
                request = next
                continue
            }
            if let redirectError = outcome.redirectError {
                return fail(&result, redirectError)
            }
            if outcome.responseRejected {
                result.response = outcome.response
                return fail(
                    &result,
                    SessionError(
                        kind: .cancelled,
                        message: "the response was refused by the session's response disposition",
                        failingURL: adapted.url,
                        response: outcome.response
                    )
                )
            }
            let failure: AttemptFailure
            if let error = outcome.transportError {
                result.response = outcome.response
                if task.isCanceling { return fail(&result, .cancelled(adapted.url)) }
                let timedOutByDeadline = error.category == .timedOut && deadline.map { .now >= $0 } == true
                if timedOutByDeadline { return fail(&result, Self.deadlineExceeded(adapted.url)) }
                let sessionError = SessionError.transport(
                    error,
                    url: adapted.url,
                    response: outcome.response,
                    data: outcome.response == nil ? nil : outcome.body
                )
                failure = .transport(sessionError)
                result.response = outcome.response
                result.body = outcome.response == nil ? nil : outcome.body
                result.error = sessionError
            } else {
                guard var response = outcome.response else {
                    return fail(&result, .cancelled(adapted.url))
                }
                var body = outcome.body
                if let cache {
                    switch await cache.receive(
                        response,
                        body: body,
                        for: adapted,
                        revalidating: revalidating,
                        metrics: outcome.metrics
                    ) {
                    case .use(let final, let disposition):
                        response = final.response
                        body = final.body
                        result.cacheDisposition = disposition
                    case .resendUnconditionally:
                        bypassCache = true
                        continue
                    }
                }
                failure = .response(response, body: body)
                result.response = response
                result.body = body
                result.error = nil
            }
            // A streamed head (and maybe body) already reached the caller: it cannot be taken back.
            if bodyChannel?.hasHead == true { return result }
            switch await interceptor?.retry(adapted, dueTo: failure, attempt: context) ?? .doNotRetry {
            case .doNotRetry:
                return result
            case .doNotRetryWithError(let message):
                return fail(
                    &result,
                    SessionError(
                        kind: .retryFailed,
                        message: message,
                        failingURL: adapted.url,
                        response: result.response,
                        data: result.body,
                        underlying: result.error
                    )
                )
            case .retry:
                break
            case .retryAfter(let delay):
                if let deadline, ContinuousClock.now + delay >= deadline {
                    return fail(&result, Self.deadlineExceeded(adapted.url))
                }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return fail(&result, .cancelled(adapted.url))
                }
            }
            result.retryCount += 1
            report(SessionEvent(.retryScheduled, task: task.taskIdentifier, request: request, error: result.error))
        }
    }

    /// Applies the redirect rules, the limit, loop detection and the handler to a redirect head.
    private func resolve(
        redirect response: HTTPResponse,
        to location: URL,
        from request: HTTPRequest,
        visited: Set<String>,
        count: Int
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
        guard count < configuration.maximumRedirects else {
            return failure(
                .tooManyRedirects(limit: configuration.maximumRedirects),
                "more than \(configuration.maximumRedirects) redirects"
            )
        }
        guard !visited.contains(Self.key(next)) else {
            return failure(.loop, "the redirects loop back to \(next.url.absoluteString)")
        }
        return .follow(next)
    }

    /// Completes the task with a stored response: no transfer, no retrier.
    private func served(_ stored: CachedResponse, for request: HTTPRequest, into result: inout Result) -> Result {
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
        return result
    }

    private func fail(_ result: inout Result, _ error: SessionError) -> Result {
        result.error = error
        return result
    }

    private static func key(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.absoluteString)"
    }

    private static func deadlineExceeded(_ url: URL) -> SessionError {
        SessionError(kind: .deadlineExceeded, message: "the call passed its deadline", failingURL: url)
    }
}
