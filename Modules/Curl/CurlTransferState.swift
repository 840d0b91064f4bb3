internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierContentDecoding
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// One transfer's easy handle and everything its libcurl callbacks touch.
///
/// Confinement: created, used and released on the loop thread only. libcurl calls its callbacks from
/// `curl_multi_socket_action` and `curl_easy_pause`, both on the loop thread, with this object (unretained)
/// as user data; the loop's `active` table keeps it alive until `curl_multi_remove_handle`.
/// Callbacks may re-enter while `curl_easy_pause` runs, so every callback reads its state fresh.
/// The properties the callbacks touch skip the runtime's exclusivity checks in release builds only,
/// for the reason ``CurlLoop`` gives; debug builds keep them.
final class CurlTransferState {
    let id: Int
    let easy: UnsafeMutableRawPointer
    let request: HTTPRequest
    /// The origin the loop admitted the transfer under (``OriginAdmission``).
    let origin: Substring
    /// Yields go through the loop's per-iteration batch of consumer wake-ups.
    let events: LoopBatchedEvents
    unowned let loop: CurlLoop
    let options: TransferOptions
    /// The async producer's pipe, when the body is a producer.
    let requestBodyPipe: RequestBodyPipe?
    let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?

    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// The response head, line by line.
    var head: ResponseHeadReader
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// The response body on its way to the consumer or the download file.
    var body: ResponseBodyDelivery<LoopBatchedEvents>
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// The request body on its way to libcurl.
    var upload: UploadPump
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    var finalResponse: HTTPResponse?
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    var redirectLocation: URL?
    /// Whether the final head or a redirect head has been reported: body bytes count from here on.
    var hasDeliveredHead: Bool { finalResponse != nil || redirectLocation != nil }
    /// The download file, when the body goes to one.
    var download: DownloadFile? { body.download }
    /// Why one of the callbacks stopped the transfer; wins over libcurl's bare code.
    var pendingFailure: TransportError? {
        didSet { hasPendingFailure = pendingFailure != nil }
    }
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// `pendingFailure != nil`, kept apart: testing the optional itself copied the whole error
    /// (metrics included) in the body callback, which runs for every chunk.
    private(set) var hasPendingFailure = false
    /// The over-long body libcurl noticed and dropped (see `LibcurlNotice`); fails a transfer that
    /// libcurl ends with success.
    var excessBodyFailure: TransportError?
    /// Whether libcurl's debug output is on (`CURLOPT_VERBOSE`), to notice silent faults in the body.
    var noticeWindowOpen = false
    /// Whether the request has a body, whose upload progress the progress callback reports.
    private(set) var sendsRequestBody = false
    /// Whether the transfer may speak HTTP/2 and has no head yet: its progress callback opens the
    /// notice window once the request is out, for a GOAWAY before the head (see `LibcurlNotice`).
    var watchesForEarlyGoaway = false
    /// Set while the transport has a trust policy: the evaluation of the connection this transfer
    /// opened, if it opened one.
    private(set) var trustEvaluation: TrustEvaluationNote?
    /// When the loop handed the transfer to libcurl (`TransferMetrics.startDate`).
    var startDate: Date?
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Whether the loop will hand this transfer's gathered body chunks on at the end of its pass.
    var flushesAtPassEnd = false
    var suspended = false
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    var finished = false
    /// Whether the handle went back to the loop's ``EasyHandlePool``; the deinit then leaves it alone.
    private var handleRecycled = false
    /// What this transfer set on its handle: whether the pool can take it without a reset.
    var optionTrail = HandleOptionTrail()

    private init(
        pending: PendingTransfer,
        easy: UnsafeMutableRawPointer,
        errorBuffer: UnsafeMutablePointer<CChar>?,
        loop: CurlLoop,
        configuration: borrowing CurlTransport.Configuration
    ) {
        // `borrowing`: an initializer owns its arguments by default, and the configuration's copy
        // retained each of its references per transfer (as did reading it through `loop`).
        id = pending.id
        self.easy = easy
        request = pending.request
        origin = pending.origin
        events = LoopBatchedEvents(events: pending.events, loop: loop, transferID: pending.id)
        options = pending.options
        requestBodyPipe = pending.requestBodyPipe
        self.loop = loop
        self.errorBuffer = errorBuffer ?? Self.makeErrorBuffer()
        head = ResponseHeadReader(
            url: pending.request.url,
            maximumHeaderSize: configuration.maximumHeaderSize,
            maximumHeaderCount: configuration.maximumHeaderCount,
            credential: pending.request.credential,
            strings: loop.headerStrings
        )
        // Not `??`: its autoclosure would consume the borrowed configuration.
        var maximumBodySize = configuration.maximumResponseBodySize
        if let limit = pending.request.maximumResponseBodySize { maximumBodySize = limit }
        body = ResponseBodyDelivery(
            sink: events,
            url: pending.request.url,
            maximumBodySize: maximumBodySize,
            decodesContent: false,
            download: nil,
            chunkBuffers: loop.bodyChunkBuffers
        )
        upload = UploadPump(source: .none, url: pending.request.url, declaredLength: pending.request.body.length)
    }

    deinit {
        body.releaseGatheringBuffer()
        if !handleRecycled {
            curl_easy_cleanup(easy)
            errorBuffer.deallocate()
        }
        curl_slist_free_all(headerList)
        download?.close()
    }

    // MARK: Setup

    /// An easy handle carrying the options every transfer of a transport shares, or `nil` when
    /// libcurl rejects one of them (each transfer then sets them itself and reports the rejection).
    ///
    /// `curl_easy_duphandle` copies its options into each transfer's handle in one pass: setting some
    /// fifteen options per transfer (the protocol list parsed from text, the receive buffer allocated
    /// at libcurl's default size and then reallocated) showed in the per-request profile. Only
    /// transfer-independent values go here: function pointers, numbers, strings (libcurl copies
    /// those) and the loop's slists, which outlive every handle. Each transfer sets its own
    /// `CURLOPT_PRIVATE`, error buffer and callback user data over the copies.
    static func makeTemplate(
        configuration: CurlTransport.Configuration,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?
    ) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else { return nil }
        do {
            try applyTransportOptions(
                to: easy,
                configuration: configuration,
                resolveList: resolveList,
                connectToList: connectToList,
                url: nil
            )
            return easy
        } catch {
            curl_easy_cleanup(easy)
            return nil
        }
    }

    /// Builds the transfer for `pending`, or the error that prevents it, on `pooled` (an idle handle
    /// that already carries the transport's options, see ``EasyHandlePool``) when there is one, else
    /// on a copy of `template` when there is one (see
    /// ``makeTemplate(configuration:resolveList:connectToList:)``), else on a fresh handle that gets
    /// the transport's options itself.
    static func make(
        _ pending: PendingTransfer,
        loop: CurlLoop,
        configuration: borrowing CurlTransport.Configuration,
        pooled: EasyHandlePool.Handle?,
        template: UnsafeMutableRawPointer?,
        share: UnsafeMutableRawPointer,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?
    ) -> Result<CurlTransferState, TransportError> {
        let copy = pooled?.easy ?? template.flatMap { curl_easy_duphandle($0) }
        guard let easy = copy ?? curl_easy_init() else {
            return .failure(
                TransportError(category: .other, message: "curl_easy_init failed", url: pending.request.url)
            )
        }
        let transfer = CurlTransferState(
            pending: pending,
            easy: easy,
            errorBuffer: pooled?.errorBuffer,
            loop: loop,
            configuration: configuration
        )
        do {
            try transfer.configure(
                configuration: configuration,
                carried: pooled?.carried ?? [],
                share: share,
                resolveList: copy == nil ? resolveList : nil,
                connectToList: copy == nil ? connectToList : nil,
                hasTransportOptions: copy != nil
            )
            return .success(transfer)
        } catch {
            transfer.finished = true
            transfer.download?.close()
            return .failure(error)
        }
    }

    /// Sets this transfer's options; `hasTransportOptions` when the handle is a copy of the
    /// transport's template and already carries ``applyTransportOptions(to:configuration:resolveList:connectToList:url:)``.
    private func configure(
        configuration: borrowing CurlTransport.Configuration,
        carried: HandleOptionTrail.Carried,
        share: UnsafeMutableRawPointer,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?,
        hasTransportOptions: Bool
    ) throws(TransportError) {
        let url = request.url
        // The admission key starts with the lowercased scheme: no String is made for it here.
        let scheme = OriginAdmission.webScheme(ofOrigin: origin)
        guard scheme.isWeb else {
            throw TransportError(category: .invalidRequest, message: "only http and https URLs are supported", url: url)
        }
        watchesForEarlyGoaway =
            switch configuration.httpVersion {
            case .http1_1: false
            case .automatic: scheme.isSecure
            case .h2cUpgrade: true
            }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if !hasTransportOptions {
            try Self.applyTransportOptions(
                to: easy,
                configuration: configuration,
                resolveList: resolveList,
                connectToList: connectToList,
                url: url
            )
        }
        try set(CURLOPT_URL, url.absoluteString)
        // Pooled handles are reset (`curl_easy_reset`), so the option is set only when asked for.
        if request.sendsPathAsIs { try set(CURLOPT_PATH_AS_IS, 1) }
        try set(CURLOPT_PRIVATE, pointer: UnsafeMutableRawPointer(bitPattern: id))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try validateRequestSettings()
        // The transport's defaults are read out first: a `??` autoclosure that captured the
        // configuration copied the whole of it (retaining each of its references) per transfer.
        let (defaultConnectTimeout, defaultTotalTimeout, defaultIdleTimeout) = (
            configuration.connectTimeout, configuration.totalTimeout, configuration.idleTimeout
        )
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout ?? defaultConnectTimeout))
        if let total = request.timeout ?? defaultTotalTimeout {
            try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total))
        }
        if let idle = request.idleTimeout ?? defaultIdleTimeout {
            try set(CURLOPT_LOW_SPEED_LIMIT, 1)
            try set(CURLOPT_LOW_SPEED_TIME, Int((Self.milliseconds(idle) + 999) / 1000))
        }
        if let maximumBodySize = body.maximumBodySize {
            try setOff(CURLOPT_MAXFILESIZE_LARGE, maximumBodySize)
        }

        try set(CURLOPT_WRITEDATA, pointer: context)
        try set(CURLOPT_HEADERDATA, pointer: context)
        try set(CURLOPT_DEBUGDATA, pointer: context)
        if configuration.trustInstaller != nil {
            trustEvaluation = TrustEvaluationNote()
            try set(CURLOPT_SSL_CTX_DATA, pointer: context)
        }
        if let credential = request.credential {
            try configureAuthentication(credential)
        }
        if Self.usesSharedCookies(request, configuration.cookiePolicy) {
            if carried.contains(.sharedCookieJar) {
                // The pool gives a handle with the jar only to transfers that use it.
                optionTrail.keep(.sharedCookieJar)
            } else {
                optionTrail.record(CURLOPT_SHARE)
                try check(courier_curl_easy_setopt_share(easy, share), "CURLOPT_SHARE")
                try set(CURLOPT_COOKIEFILE, "")
            }
        }

        var headers = request.headers
        if case .file(let path, let resume) = options.destination {
            body.download = try DownloadFile.open(path: path, resume: resume, url: url)
        }
        let resumesDownload = download?.requestedRange != nil
        if request.method == .head {
            try set(CURLOPT_NOBODY, 1)
        } else if Self.sendsBody(request) {
            try configureRequestBody(context: context)
            if !headers.contains(name: "Content-Type") {
                // libcurl would add `application/x-www-form-urlencoded`; the request goes as given.
                headerList = curl_slist_append(headerList, "Content-Type:")
            }
        } else if request.method != .get {
            try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if watchesForEarlyGoaway, !sendsRequestBody { try installProgressCallback(context: context) }
        if sendsRequestBody && !headers.contains(name: "Expect") {
            // No `Expect: 100-continue` round trip: libcurl would wait up to a second for `100` on
            // large bodies. A request that sets `Expect` itself gets libcurl's handling of it.
            // libcurl never sends `Expect` without a body, so a bodyless request needs no list.
            headerList = curl_slist_append(headerList, "Expect:")
        }
        if headers.contains(name: "Accept-Encoding") {
            // The caller negotiates codings itself and gets the body as sent.
        } else if configuration.automaticDecompression && !resumesDownload {
            // A resumed download asks for a byte range of the identity representation: ranges of a
            // compressed representation are not that (and nginx answers them with a whole 200).
            if carried.contains(.acceptEncoding) {
                optionTrail.keep(.acceptEncoding)
            } else {
                try set(CURLOPT_ACCEPT_ENCODING, "")
            }
            body.decodesContent = true
        }
        if carried.contains(.acceptEncoding) && !optionTrail.carried.contains(.acceptEncoding) {
            // The handle's previous transfer asked for libcurl's codings; this one does not.
            try check(
                courier_curl_easy_setopt_pointer(easy, CURLOPT_ACCEPT_ENCODING, nil),
                "CURLOPT_ACCEPT_ENCODING"
            )
        }
        if let download {
            if let range = download.requestedRange {
                headers.remove(name: "Range")
                headers.remove(name: "If-Range")
                headerList = curl_slist_append(headerList, "Range: bytes=\(range.offset)-")
                headerList = curl_slist_append(headerList, "If-Range: \(range.validator)")
            }
        }
        for field in headers {
            // `Name;` is libcurl's spelling of a header with an empty value (`Name:` removes it).
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            let list = headerList
            headerList = line.withCString { curl_slist_append(list, $0) }
        }
        if let headerList {
            optionTrail.record(CURLOPT_HTTPHEADER)
            try check(courier_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
        }
    }

    /// The options that are the same for every transfer of the transport (the callbacks find their
    /// transfer through the user data each transfer sets). `url` only labels a rejection.
    static func applyTransportOptions(
        to easy: UnsafeMutableRawPointer,
        configuration: CurlTransport.Configuration,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?,
        url: URL?
    ) throws(TransportError) {
        let options = EasyOptions(easy: easy, url: url)
        try options.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try options.set(CURLOPT_NOSIGNAL, 1)
        try options.set(CURLOPT_FOLLOWLOCATION, 0)
        try options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try options.set(CURLOPT_PIPEWAIT, 1)
        try options.set(CURLOPT_BUFFERSIZE, configuration.receiveBufferSize)
        // Courier decodes content codings itself, piece by piece as its consumer reads: libcurl
        // decodes a whole network read at once, and while the consumer is behind it keeps the
        // decoded bytes of a paused transfer (up to 64 MiB, then the transfer fails), which a
        // compressed body fills at its compression ratio. `Accept-Encoding` is still libcurl's.
        try options.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        try options.set(CURLOPT_HTTP_VERSION, curlHTTPVersion(configuration.httpVersion))
        try options.setFunction(CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        try options.setFunction(CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        // libcurl reports some faults it tolerates only as debug text (over-long bodies, HTTP/2
        // GOAWAY on a socket left open). The output stays off (`CURLOPT_VERBOSE=0`, so it costs
        // nothing) except while a response body is read: see `openNoticeWindow`.
        let debugFunction = configuration.hasDiagnosticsHandler ? tracingDebugCallback : debugCallback
        try options.check(courier_curl_easy_setopt_debug_function(easy, debugFunction), "CURLOPT_DEBUGFUNCTION")
        try configureRouting(options, configuration, resolveList: resolveList, connectToList: connectToList)
        try configureTLS(options, configuration)
        try configureProxyTLS(options, configuration)
    }

    /// A zeroed buffer of libcurl's error size, for `CURLOPT_ERRORBUFFER`.
    private static func makeErrorBuffer() -> UnsafeMutablePointer<CChar> {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(courier_curl_error_size))
        buffer.initialize(repeating: 0, count: Int(courier_curl_error_size))
        return buffer
    }

    /// Whether the transfer attaches the transport's shared cookie jar to its handle.
    static func usesSharedCookies(_ request: HTTPRequest, _ policy: CurlTransport.CookiePolicy) -> Bool {
        request.handlesCookies ?? (policy == .enabled)
    }

    /// Hands the handle, out of the multi handle and no longer touched by this transfer, to `pool`:
    /// as it is when the transfer reused a connection and set only options it can undo (see
    /// ``HandleOptionTrail``), else reset (`curl_easy_reset`) and given the transport's options
    /// (`configuration`, the loop's) again. The deinit cleans it up instead when libcurl rejects one
    /// of those options, or when the handle may hold a TLS session (see ``mayHoldTLSSession(_:connects:)``).
    func recycleHandle(
        into pool: inout EasyHandlePool,
        configuration: CurlTransport.Configuration,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?
    ) {
        var connects = 0
        guard !handleRecycled,
            courier_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK,
            !mayHoldTLSSession(configuration, connects: connects)
        else { return }
        handleRecycled = true
        let sharedCookies = Self.usesSharedCookies(request, configuration.cookiePolicy)
        // The next transfer reads the buffer after a failure libcurl may not describe.
        errorBuffer[0] = 0
        var handle = EasyHandlePool.Handle(easy: easy, errorBuffer: errorBuffer)
        // A transfer that opened a connection may have retried on a fresh one: libcurl counts such
        // retries on the handle (7.88: `state.retrycount`, cleared only by a reset), and a later
        // transfer would then give up sooner. Reusing a connection is the common case anyway.
        if connects == 0 && !optionTrail.needsReset && optionTrail.undo(on: easy) {
            if !noticeWindowOpen || courier_curl_easy_setopt_long(easy, CURLOPT_VERBOSE, 0) == CURLE_OK {
                handle.carried = optionTrail.carried
                pool.put(handle, sharedCookies: sharedCookies)
                return
            }
        }
        if sharedCookies {
            // libcurl 7.88's reset zeroes the list of cookie files (`CURLOPT_COOKIEFILE`) without
            // freeing it: clearing the option first frees it. It also detaches the jar, which the
            // next transfer's `CURLOPT_SHARE` attaches again.
            _ = courier_curl_easy_setopt_pointer(easy, CURLOPT_COOKIEFILE, nil)
        }
        curl_easy_reset(easy)
        do {
            try Self.applyTransportOptions(
                to: easy,
                configuration: configuration,
                resolveList: resolveList,
                connectToList: connectToList,
                url: nil
            )
        } catch {
            handle.release()
            return
        }
        pool.put(handle, sharedCookies: sharedCookies)
    }

    /// Whether the handle may have cached a TLS session, which `curl_easy_reset` keeps: the transfer
    /// opened a connection that may have been TLS (an `https` URL, or any proxy but none). A copy of
    /// the template starts with an empty cache, so a pooled handle must too: a later transfer on it
    /// would otherwise resume a session that a fresh handle could not, and session reuse would
    /// differ from a handle per transfer.
    private func mayHoldTLSSession(_ configuration: CurlTransport.Configuration, connects: Int) -> Bool {
        guard connects > 0 else { return false }
        return request.url.scheme?.lowercased() != "http" || configuration.proxy != .none
    }

    /// Whether the request carries a body: any non-empty body, and an empty one for methods whose
    /// semantics expect one (an empty POST, PUT or PATCH still says `Content-Length: 0`).
    static func sendsBody(_ request: HTTPRequest) -> Bool { request.sendsBody }

    private func configureRequestBody(context: UnsafeMutableRawPointer) throws(TransportError) {
        // Every method with a body goes through libcurl's POST machinery, renamed by CUSTOMREQUEST:
        // UPLOAD (PUT) would add `Expect` handling and different retry rules.
        try set(CURLOPT_POST, 1)
        if request.method != .post {
            try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        try setOff(CURLOPT_POSTFIELDSIZE_LARGE, request.body.length ?? -1)
        if request.body.producer != nil {
            guard let requestBodyPipe else {
                throw TransportError(
                    category: .requestBodyFailed,
                    message: "the body producer is missing",
                    url: request.url
                )
            }
            upload = UploadPump(source: .pipe(requestBodyPipe), url: request.url, declaredLength: request.body.length)
        } else {
            do {
                if let reader = try request.body.makeReader() {
                    upload = UploadPump(source: .reader(reader), url: request.url, declaredLength: request.body.length)
                }
            } catch {
                throw TransportError(
                    category: .requestBodyFailed,
                    message: "the request body cannot be read: \(error)",
                    url: request.url,
                    underlying: error
                )
            }
        }
        try set(CURLOPT_READDATA, pointer: context)
        try setFunction(CURLOPT_READFUNCTION) { buffer, size, count, context in
            guard let context, let buffer else { return courier_curl_readfunc_abort }
            let transfer = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
            return transfer.sendBody(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        }
        try set(CURLOPT_SEEKDATA, pointer: context)
        optionTrail.record(CURLOPT_SEEKFUNCTION)
        try check(
            courier_curl_easy_setopt_seek_function(easy) { context, offset, origin in
                guard let context else { return courier_curl_seekfunc_cantseek }
                let transfer = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
                return transfer.rewindBody(offset: Int64(offset), origin: origin)
            },
            "CURLOPT_SEEKFUNCTION"
        )
        sendsRequestBody = true
        try installProgressCallback(context: context)
    }

    /// libcurl's progress callback, for upload progress and the early GOAWAY watch; transfers that
    /// need neither go without, so libcurl makes no call per pass for them.
    private func installProgressCallback(context: UnsafeMutableRawPointer) throws(TransportError) {
        try set(CURLOPT_NOPROGRESS, 0)
        try set(CURLOPT_XFERINFODATA, pointer: context)
        optionTrail.record(CURLOPT_XFERINFOFUNCTION)
        try check(
            courier_curl_easy_setopt_xferinfo_function(easy) { context, _, _, _, _ in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
                if transfer.sendsRequestBody { transfer.reportUploadProgress(force: false) }
                if transfer.watchesForEarlyGoaway { transfer.openNoticeWindowOnceRequestIsSent() }
                return 0
            },
            "CURLOPT_XFERINFOFUNCTION"
        )
    }

    private static func configureRouting(
        _ options: EasyOptions,
        _ configuration: CurlTransport.Configuration,
        resolveList: UnsafeMutablePointer<curl_slist>?,
        connectToList: UnsafeMutablePointer<curl_slist>?
    ) throws(TransportError) {
        switch configuration.proxy {
        case .environment:
            break
        case .none:
            try options.set(CURLOPT_PROXY, "")
            // No host is proxied, so libcurl need not read `no_proxy` and `NO_PROXY` from the
            // environment for each transfer (7.88 does so whenever this option is unset).
            try options.set(CURLOPT_NOPROXY, "*")
        case .explicit(let url, let credentials, let noProxy):
            try options.set(CURLOPT_PROXY, url)
            if let credentials {
                try options.set(CURLOPT_PROXYUSERNAME, credentials.user)
                try options.set(CURLOPT_PROXYPASSWORD, credentials.password)
            }
            if !noProxy.isEmpty { try options.set(CURLOPT_NOPROXY, noProxy.joined(separator: ",")) }
        }
        if let resolveList {
            try options.check(
                courier_curl_easy_setopt_slist(options.easy, CURLOPT_RESOLVE, resolveList),
                "CURLOPT_RESOLVE"
            )
        }
        if let connectToList {
            try options.check(
                courier_curl_easy_setopt_slist(options.easy, CURLOPT_CONNECT_TO, connectToList),
                "CURLOPT_CONNECT_TO"
            )
        }
        if let path = configuration.unixSocketPath {
            try options.set(CURLOPT_UNIX_SOCKET_PATH, path)
        }
    }

    /// The transport's TLS options; with a trust policy each transfer also sets `CURLOPT_SSL_CTX_DATA`
    /// to itself (see `configure`), where the callback records a rejection.
    private static func configureTLS(
        _ options: EasyOptions,
        _ configuration: CurlTransport.Configuration
    ) throws(TransportError) {
        let tls = configuration.tls
        try options.setMaterial(of: tls, .server)
        if configuration.trustInstaller != nil {
            // The policy decides: OpenSSL must still ask (VERIFYPEER, else it ignores the verify
            // callback's verdict), the host check is the policy's, and no session may be resumed
            // past it (a resumed session presents no certificate).
            try options.check(
                courier_curl_easy_setopt_ssl_ctx_function(options.easy, sslContextCallback),
                "CURLOPT_SSL_CTX_FUNCTION"
            )
            try options.set(CURLOPT_SSL_VERIFYPEER, 1)
            try options.set(CURLOPT_SSL_VERIFYHOST, 0)
            try options.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        } else {
            try options.set(CURLOPT_SSL_VERIFYPEER, tls.verifiesPeer ? 1 : 0)
            try options.set(CURLOPT_SSL_VERIFYHOST, tls.verifiesHost ? 2 : 0)
        }
    }

    static func curlHTTPVersion(_ policy: CurlTransport.HTTPVersionPolicy) -> Int {
        switch policy {
        case .automatic: Int(CURL_HTTP_VERSION_2TLS)
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .h2cUpgrade: Int(CURL_HTTP_VERSION_2_0)
        }
    }

    /// Hands the credential to libcurl (`CURLOPT_HTTPAUTH`, `CURLOPT_USERNAME`, `CURLOPT_PASSWORD`),
    /// which sends Basic at once and answers a Digest challenge. libcurl never follows redirects
    /// here, so the credential only ever goes to this request's origin.
    private func configureAuthentication(_ credential: HTTPCredential) throws(TransportError) {
        var schemes = 0
        if credential.schemes.contains(.basic) { schemes |= courier_curl_auth_basic }
        if credential.schemes.contains(.digest) { schemes |= courier_curl_auth_digest }
        guard schemes != 0 else {
            throw TransportError(
                category: .invalidRequest,
                message: "the credential names no authentication scheme",
                url: request.url
            )
        }
        try set(CURLOPT_HTTPAUTH, schemes)
        try set(CURLOPT_USERNAME, credential.user)
        try set(CURLOPT_PASSWORD, credential.password)
    }

    /// Rejects per-request settings no transfer can honour, before libcurl sees them.
    private func validateRequestSettings() throws(TransportError) {
        func fail(_ message: String) -> TransportError {
            TransportError(category: .invalidRequest, message: message, url: request.url)
        }
        if let timeout = request.timeout, timeout <= .zero { throw fail("timeout must be positive") }
        if let connect = request.connectTimeout, connect <= .zero { throw fail("connectTimeout must be positive") }
        if let idle = request.idleTimeout, idle <= .zero { throw fail("idleTimeout must be positive") }
        if let limit = request.maximumResponseBodySize, limit < 0 {
            throw fail("maximumResponseBodySize must not be negative")
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int.max }
        return max(1, Int(total.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    private func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        optionTrail.record(option)
        try check(courier_curl_easy_setopt_long(easy, option, value), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(TransportError) {
        try EasyOptions(easy: easy, url: request.url).check(code, what())
    }

    private func setOff(_ option: CURLoption, _ value: Int64) throws(TransportError) {
        optionTrail.record(option)
        try check(courier_curl_easy_setopt_off(easy, option, curl_off_t(value)), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(TransportError) {
        // `withCString`, not the implicit String-to-pointer conversion: that one copies the String
        // into a fresh `utf8CString` array (three allocations per call), while a native String
        // lends its own NUL-terminated storage. libcurl copies the value.
        optionTrail.record(option)
        let code = value.withCString { courier_curl_easy_setopt_string(easy, option, $0) }
        try check(code, "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(TransportError) {
        optionTrail.record(option)
        try check(courier_curl_easy_setopt_pointer(easy, option, pointer), "option \(option.rawValue)")
    }

    private func setFunction(_ option: CURLoption, _ function: curl_write_callback) throws(TransportError) {
        optionTrail.record(option)
        try check(courier_curl_easy_setopt_data_function(easy, option, function), "option \(option.rawValue)")
    }

}

/// Option setters for one easy handle, shared by the transport's template and each transfer.
struct EasyOptions {
    let easy: UnsafeMutableRawPointer
    /// The transfer's URL, to label a rejection (`nil` while the template is built).
    let url: URL?

    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(courier_curl_easy_setopt_long(easy, option, value), "option \(option.rawValue)")
    }

    func set(_ option: CURLoption, _ value: String) throws(TransportError) {
        // `withCString`: the implicit conversion copies the String into a fresh array first, which
        // showed once pooled handles got these options per transfer (see the transfer's `set`).
        let code = value.withCString { courier_curl_easy_setopt_string(easy, option, $0) }
        try check(code, "option \(option.rawValue)")
    }

    /// Sets a blob option; libcurl keeps its own copy, so the bytes need not outlive the call.
    func set(_ option: CURLoption, blob: Data) throws(TransportError) {
        let code = blob.withUnsafeBytes { bytes in
            courier_curl_easy_setopt_blob(easy, option, bytes.baseAddress, bytes.count)
        }
        try check(code, "option \(option.rawValue)")
    }

    func setFunction(_ option: CURLoption, _ function: curl_write_callback) throws(TransportError) {
        try check(courier_curl_easy_setopt_data_function(easy, option, function), "option \(option.rawValue)")
    }

    /// A rejected option is a configuration error, never a trap (see swift-corelibs-foundation#5445).
    ///
    /// `what` is built only on failure: a transfer sets some twenty options, and formatting each
    /// option's name up front showed in the per-request profile.
    func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(TransportError) {
        guard code == CURLE_OK else {
            throw TransportError(
                category: code == CURLE_UNKNOWN_OPTION || code == CURLE_NOT_BUILT_IN ? .configuration : .invalidRequest,
                code: Int(code.rawValue),
                message: "libcurl rejected \(what()): \(String(cString: curl_easy_strerror(code)))",
                url: url
            )
        }
    }
}
