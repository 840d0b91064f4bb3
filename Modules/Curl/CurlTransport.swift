public import CourierHTTP
public import CourierTransport
internal import FoundationEssentials
internal import Synchronization

/// The libcurl transport: one loop thread and one libcurl multi handle per instance.
///
/// Transfers share the instance's connection pool (HTTP/1.1 keep-alive, HTTP/2 multiplexing over
/// TLS), cookie jar and configuration. Every libcurl call happens on the loop thread; the methods
/// here only post commands to it, so none of them blocks. Create one transport per set of TLS,
/// proxy and routing settings and keep it for the life of the session. ``shutdown()`` cancels what
/// is in flight and waits for the loop thread to clean up; a transport dropped without it lets its
/// running transfers finish, then stops its loop thread by itself.
///
/// libcurl never follows redirects here: a redirect response arrives as
/// `TransferEvent.redirect(_:location:)`, its body follows as `.body` chunks (streamed transfers;
/// a file destination never receives a redirect's body), and the transfer completes.
///
/// Request headers go out as given. libcurl adds only `Host`, `Accept: */*` (when the request has
/// no `Accept`), the body framing (`Content-Length`, or `Transfer-Encoding: chunked` for a body of
/// unknown length) and, with ``Configuration/automaticDecompression``, `Accept-Encoding`. It never
/// adds `Content-Type` or `Expect: 100-continue` (a request that sets `Expect` itself gets it).
/// Every method with a body is sent through libcurl's POST machinery under its own name, and `HEAD`
/// asks for no body.
///
/// ```swift
/// let transport = CurlTransport()
/// let request = HTTPRequest(url: URL(string: "https://example.com/")!)
/// let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
/// print(result.response.status, result.metrics.protocolVersion as Any)
/// await transport.shutdown()
/// ```
public final class CurlTransport: HTTPTransport {
    /// The configuration the transport was created with.
    public let configuration: Configuration
    /// The transport's cookie jar, shared by every transfer that handles cookies.
    public let cookies: CurlCookieJar

    /// The cookie jar as a `CookieStore`: ``cookies``, seen through the protocol.
    ///
    /// ```swift
    /// let names = try await transport.cookieStore?.allCookies().map(\.name)
    /// ```
    public var cookieStore: (any CookieStore)? { cookies }

    /// The configuration's ``Configuration/cookiePolicy`` and ``Configuration/automaticDecompression``.
    ///
    /// ```swift
    /// CurlTransport().requestDefaults.decompressesResponses  // true
    /// ```
    public var requestDefaults: TransportRequestDefaults {
        TransportRequestDefaults(
            handlesCookies: configuration.cookiePolicy == .enabled,
            decompressesResponses: configuration.automaticDecompression
        )
    }
    private let loop: CurlLoop?
    private let startupError: TransportError?
    private let nextIdentifier = Atomic<Int>(0)

    /// Creates a transport and starts its loop thread.
    ///
    /// A configuration that fails ``Configuration/validate()``, or a libcurl built without OpenSSL
    /// or HTTP/2, does not crash: every transfer then fails at once with that
    /// `TransportError.Category.configuration` error (see ``configurationError``).
    ///
    /// ```swift
    /// var configuration = CurlTransport.Configuration()
    /// configuration.tls.caFile = "/etc/courier/ca.pem"
    /// let transport = CurlTransport(configuration: configuration)
    /// ```
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var failure: TransportError? = CurlRuntime.startupError
        if failure == nil {
            do {
                try configuration.validate()
            } catch {
                failure = error
            }
        }
        var loop: CurlLoop?
        if failure == nil {
            if let created = CurlLoop(configuration: configuration), created.start() {
                loop = created
            } else {
                failure = TransportError(category: .configuration, message: "cannot start the libcurl loop thread")
            }
        }
        self.loop = loop
        startupError = failure
        cookies = CurlCookieJar(loop: loop, startupError: failure)
    }

    deinit {
        loop?.post(.ownerReleased)
    }

    /// A task executor that runs on the transport's loop thread.
    ///
    /// A task that prefers it (`withTaskExecutorPreference`, `Task(executorPreference:)`, and
    /// every child task of either) runs between the loop's passes over libcurl, on the thread that
    /// produces its transfers' events: each event reaches it with no thread hop, and a transfer it
    /// starts is added in the same pass. On small requests this saves most of the CPU the transport
    /// spends beyond libcurl's own work (see the README's benchmark figures).
    ///
    /// Only event-draining code belongs there: while a job runs, no transfer of this transport
    /// moves. Decoding a large body, waiting on a lock or calling blocking I/O there stalls every
    /// transfer; hop off first, for example with
    /// `withTaskExecutorPreference(globalConcurrentExecutor) { … }`. A transport that could not
    /// start (``configurationError``) or that was shut down runs such tasks on the global
    /// concurrent executor instead.
    ///
    /// ```swift
    /// let status = await withTaskExecutorPreference(transport.executor) {
    ///     var status = 0
    ///     for await event in transport.startTransfer(request, options: TransferOptions()).events {
    ///         if case .response(let response) = event { status = response.status.code }
    ///     }
    ///     return status
    /// }
    /// ```
    public var executor: any TaskExecutor {
        loop ?? globalConcurrentExecutor
    }

    /// The loop thread's `pthread_self()`, for tests that check where a task ran; `nil` before the
    /// thread runs or when the transport could not start.
    package var loopThreadID: UInt? {
        guard let id = loop?.threadID.load(ordering: .acquiring), id != 0 else { return nil }
        return id
    }

    /// Why the transport cannot run transfers, or `nil` when it can.
    public var configurationError: TransportError? { startupError }

    /// Starts a transfer on the loop thread and returns at once.
    ///
    /// ```swift
    /// var options = TransferOptions()
    /// options.destination = .file(path: "/tmp/big.iso", resume: nil)
    /// let transfer = transport.startTransfer(request, options: options)
    /// for await event in transfer.events { if case .failed(let error) = event { print(error) } }
    /// ```
    public func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        let (consumerEvents, events) = TransferEvents.makeEvents(
            highWaterMark: options.highWaterMark,
            lowWaterMark: options.lowWaterMark
        )
        let id = nextIdentifier.add(1, ordering: .relaxed).newValue
        guard let loop else {
            let error = startupError ?? CurlLoop.shutDownError(request.url)
            events.yield(
                .failed(TransportError(category: error.category, message: error.message, url: request.url))
            )
            return HTTPTransfer(
                request: request,
                events: consumerEvents,
                controller: CurlTransferControl(loop: nil, id: id)
            )
        }
        events.setHandlers(
            onDemand: { loop.post(.responseDemand(id)) },
            onTermination: { loop.post(.cancel(id)) }
        )
        var pipe: RequestBodyPipe?
        if let producer = request.body.producer {
            let chunks: any AsyncIteratorProtocol<Data, any Error>
            do throws(HTTPValueError) {
                chunks = try producer.claim()
            } catch let refusal {
                events.yield(.failed(.requestBodyAlreadyConsumed(refusal, url: request.url)))
                return HTTPTransfer(
                    request: request,
                    events: consumerEvents,
                    controller: CurlTransferControl(loop: nil, id: id)
                )
            }
            let created = RequestBodyPipe(capacity: 1 << 20) { loop.post(.requestBodyReady(id)) }
            created.start(chunks)
            pipe = created
        }
        let pending = PendingTransfer(id: id, request: request, options: options, events: events, requestBodyPipe: pipe)
        if !loop.post(.add(pending)) {
            pipe?.close()
            events.yield(.failed(CurlLoop.shutDownError(request.url)))
        }
        return HTTPTransfer(
            request: request,
            events: consumerEvents,
            controller: CurlTransferControl(loop: loop, id: id)
        )
    }

    /// Opens a connection to `request`'s origin on the loop thread, as a transfer of `request`
    /// would (proxy tunnel, TLS, trust policy, client identity, connect timeout), and hands over its
    /// byte stream.
    ///
    /// The handle offers `http/1.1` alone in ALPN and stays in the loop's multi handle until the
    /// connection is closed, by `RawConnection.close()`, by dropping it, or by ``shutdown()``
    /// (its reads and writes then fail with `TransportError.Category.shutDown`). The connect
    /// timeout and the request's total timeout bound the opening only.
    ///
    /// ```swift
    /// let connection = try await transport.openRawConnection(to: HTTPRequest(url: url), options: RawConnectionOptions())
    /// try await connection.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    /// var response: [UInt8] = []
    /// while let bytes = try await connection.read() { response += bytes }
    /// ```
    /// - Parameters:
    ///   - request: Whose origin to connect to; only its URL and timeouts are used.
    ///   - options: How the connection buffers what it receives.
    /// - Returns: The open connection.
    /// - Throws: `TransportError`, mapped as a transfer's failure to connect is.
    public func openRawConnection(
        to request: HTTPRequest,
        options: RawConnectionOptions
    ) async throws -> any RawConnection {
        guard let loop else {
            let error = startupError ?? CurlLoop.shutDownError(request.url)
            throw TransportError(category: error.category, message: error.message, url: request.url)
        }
        let id = nextIdentifier.add(1, ordering: .relaxed).newValue
        let (producer, consumer) = BackpressuredChannel<[UInt8], TransportError>.makeChannel(
            highWaterMark: options.readHighWaterMark,
            lowWaterMark: options.readHighWaterMark / 2,
            size: { $0.count }
        )
        producer.setHandlers(
            onDemand: { loop.post(.rawDemand(id)) },
            onTermination: { loop.post(.rawClose(id, nil)) }
        )
        let pending = PendingRawConnection(id: id, request: request, producer: producer)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, TransportError>, Never>) in
                if !loop.post(.openRaw(pending, continuation)) {
                    continuation.resume(returning: .failure(CurlLoop.shutDownError(request.url)))
                }
            }
        } onCancel: {
            loop.post(.rawClose(id, nil))
        }
        switch result {
        case .success:
            return CurlRawConnection(loop: loop, id: id, url: request.url, consumer: consumer)
        case .failure(let error):
            throw error
        }
    }

    /// Cancels every transfer in flight (they fail with `TransportError.Category.shutDown`), stops
    /// the loop thread and frees libcurl's handles; returns once the thread has cleaned up.
    ///
    /// Later transfers fail at once with `TransportError.Category.shutDown`. Never blocks a
    /// thread: the loop thread resumes this call as its last act.
    ///
    /// ```swift
    /// await transport.shutdown()
    /// ```
    public func shutdown() async {
        guard let loop else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !loop.post(.shutdown(continuation)) { continuation.resume() }
        }
    }
}

/// Cancel, suspend and resume of one transfer: each posts a command to the loop and returns.
struct CurlTransferControl: TransferControlling {
    let loop: CurlLoop?
    let id: Int

    func cancel() { loop?.post(.cancel(id)) }
    func suspend() { loop?.post(.suspend(id)) }
    func resume() { loop?.post(.resume(id)) }
}
