internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// Plays one scripted reply into a transfer's events, as a real transport would report it.
struct MockTransferPlayer {
    let request: HTTPRequest
    let options: TransferOptions
    let source: TransferEventSource
    let control: MockTransferControl
    let demand: MockDemandSignal
    let maximumResponseBodySize: Int64?
    let storeCookies: @Sendable (HTTPHeaders) -> Void
    let file: MockDownloadFile?

    private var metrics = TransferMetrics()
    private let started = ContinuousClock.now
    private var hasHead = false
    /// Whether the current head's body goes to the file (`nil`: streamed, `false`: discarded).
    private var writesFile: Bool?
    private var expectedLength: Int64?

    init(
        request: HTTPRequest,
        options: TransferOptions,
        source: TransferEventSource,
        control: MockTransferControl,
        demand: MockDemandSignal,
        maximumResponseBodySize: Int64?,
        storeCookies: @escaping @Sendable (HTTPHeaders) -> Void
    ) {
        self.request = request
        self.options = options
        self.source = source
        self.control = control
        self.demand = demand
        self.maximumResponseBodySize = maximumResponseBodySize
        self.storeCookies = storeCookies
        metrics.startDate = Date()
        if case .file(let path, let resume) = options.destination {
            file = MockDownloadFile(path: path, resume: resume)
        } else {
            file = nil
        }
    }

    /// Plays `reply` after the request body (`sentBytes` of it) was read.
    mutating func play(_ reply: MockTransport.Reply, sentBytes: Int64) async {
        defer { file?.close() }
        metrics.requestBodyBytes = sentBytes
        if let delay = reply.delay {
            guard await sleep(delay) else { return }
        }
        for step in reply.steps {
            await control.waitWhileSuspended()
            if Task.isCancelled { return }
            do throws(TransportError) {
                guard try await perform(step) else { return }
            } catch {
                finish(.failed(error))
                return
            }
        }
        guard hasHead else {
            finish(.failed(failure(.protocolViolation, "the scripted reply ended without a response head")))
            return
        }
        finish(.completed(metrics))
    }

    /// Plays one step; `false` when the transfer ended.
    private mutating func perform(_ step: MockTransport.Reply.Step) async throws(TransportError) -> Bool {
        switch step {
        case .response(let response):
            try acceptHead(response)
            source.yield(.response(filledIn(response)))
        case .redirect(let response, let location):
            try acceptHead(response, isRedirect: true)
            source.yield(.redirect(filledIn(response), location: location))
        case .body(let chunk):
            try await deliver(chunk)
        case .uploadProgress(let progress):
            source.yield(.uploadProgress(progress))
        case .downloadProgress(let progress):
            source.yield(.downloadProgress(progress))
        case .pause(let duration):
            return await sleep(duration)
        case .fail(let error):
            finish(.failed(error))
            return false
        case .complete(let scripted):
            finish(.completed(scripted))
            return false
        }
        return true
    }

    private mutating func acceptHead(_ response: HTTPResponse, isRedirect: Bool = false) throws(TransportError) {
        guard !hasHead else { throw failure(.protocolViolation, "the scripted reply has a second response head") }
        hasHead = true
        storeCookies(response.headers)
        metrics.protocolVersion = response.version
        metrics.firstByte = started.duration(to: .now)
        expectedLength = response.headers["Content-Length"].flatMap { Int64($0) }
        if let file {
            // A redirect's body never reaches the file: the next hop fills it.
            writesFile = isRedirect ? false : try file.accept(filledIn(response), url: request.url)
        }
    }

    private mutating func deliver(_ chunk: Data) async throws(TransportError) {
        guard hasHead else { throw failure(.protocolViolation, "the scripted reply has a body before its head") }
        let received = metrics.decodedBodyBytes + Int64(chunk.count)
        if let maximumResponseBodySize, received > maximumResponseBodySize {
            throw failure(.limitExceeded, "the decoded response body is larger than \(maximumResponseBodySize) bytes")
        }
        metrics.responseBodyBytes = received
        metrics.decodedBodyBytes = received
        switch writesFile {
        case .some(true):
            try file?.write(chunk, url: request.url)
            source.yield(
                .downloadProgress(TransferProgress(completed: file?.length ?? received, total: expectedLength))
            )
        case .some(false):
            return
        case .none:
            while !Task.isCancelled && !source.hasRoomForBody() {
                await demand.wait()
            }
            if Task.isCancelled { return }
            source.yield(.body(chunk))
            source.yield(.downloadProgress(TransferProgress(completed: received, total: expectedLength)))
        }
    }

    private func filledIn(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if response.url == nil { response.url = request.url }
        return response
    }

    /// Sleeps for `duration`; `false` when the transfer was cancelled meanwhile.
    private func sleep(_ duration: Duration) async -> Bool {
        do {
            try await Task.sleep(for: duration)
            return true
        } catch {
            return false
        }
    }

    private mutating func finish(_ event: TransferEvent) {
        metrics.total = started.duration(to: .now)
        switch event {
        case .failed(let error) where error.metrics == nil:
            source.yield(
                .failed(
                    TransportError(
                        category: error.category,
                        code: error.code,
                        message: error.message,
                        url: error.url ?? request.url,
                        metrics: metrics,
                        underlying: error.underlying,
                        response: error.response
                    )
                )
            )
        default:
            source.yield(event)
        }
    }

    private func failure(_ category: TransportError.Category, _ message: String) -> TransportError {
        TransportError(category: category, message: message, url: request.url)
    }
}
