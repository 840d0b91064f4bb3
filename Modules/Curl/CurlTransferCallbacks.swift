internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierDiagnostics
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// The libcurl callbacks and the pause, resume and completion logic of one transfer (loop thread).
extension CurlTransferState {
    // MARK: Response head

    /// `CURLOPT_HEADERFUNCTION`: one header line per call. Returns the byte count to go on; anything
    /// else makes libcurl stop with `CURLE_WRITE_ERROR`, and `pendingFailure` says why.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        if hasDeliveredHead { return line.count }  // trailers
        switch head.consume(line) {
        case .needMore:
            return line.count
        case .stop(let failure):
            pendingFailure = failure
            return 0
        case .final(let status, let version, let headers):
            return acceptFinalHead(status: status, version: version, headers: headers, lineCount: line.count)
        }
    }

    private func acceptFinalHead(
        status: Int,
        version parsedVersion: HTTPResponse.Version,
        headers: HTTPHeaders,
        lineCount: Int
    ) -> Int {
        var version = parsedVersion
        var curlVersion = 0
        if courier_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &curlVersion) == CURLE_OK {
            version = Self.responseVersion(curlVersion) ?? parsedVersion
        }
        // The parser noted the framing fields as it read them: the headers are searched again only
        // for a head that is not plainly framed, or whose facts a folded line left inexact.
        let framing = head.framing
        if framing.isPlainlyFramed != true,
            let violation = ResponseHeadReader.framingViolation(headers, version: version)
        {
            pendingFailure = TransportError(category: .protocolViolation, message: violation, url: request.url)
            return 0
        }
        openNoticeWindow(
            version: version,
            headers: headers,
            hasContentLength: framing.hasContentLength ?? headers.contains(name: "Content-Length")
        )
        // The last upload progress precedes the head (TransferEvent's order), unthrottled.
        if upload.hasBody { reportUploadProgress(force: true) }
        let response = HTTPResponse(
            status: HTTPStatus(code: status),
            headers: headers,
            url: request.url,
            version: version
        )
        if Self.isRedirect(status), let location = redirectTarget(headers) {
            redirectLocation = location
            // A redirect's body is streamed after `.redirect` (a session that does not follow returns
            // it as the result), but never written to a download file that the next hop will fill.
            body.begin(
                headers: headers,
                discardsBody: download != nil,
                expectedBodyBytes: framing.identityLength(headers),
                mayNameContentCoding: framing.mayNameContentCoding
            )
            events.yield(.redirect(response, location: location))
            return lineCount
        }
        finalResponse = response
        var discards = false
        var expectedBodyBytes = framing.identityLength(headers)
        if let download {
            do {
                discards = try download.accept(status: status, headers: headers, url: request.url) == .discard
            } catch {
                // No `.response` event announces a refused head (its body must not reach the file
                // or the session's download handlers), so the error carries it: a 416's
                // `Content-Range: bytes */N` tells the caller whether the file is already complete.
                pendingFailure = error.with(response: response)
                return 0
            }
            expectedBodyBytes = download.expectedLength
        }
        body.begin(
            headers: headers,
            discardsBody: discards,
            expectedBodyBytes: expectedBodyBytes,
            mayNameContentCoding: framing.mayNameContentCoding
        )
        events.yield(.response(response))
        return lineCount
    }

    /// The statuses whose `Location` the transfer reports as a redirect (a switch, not a `Set`: a
    /// lookup hashed the status on every response).
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The redirect target: libcurl's resolution of `Location` (`CURLINFO_REDIRECT_URL`), else our
    /// own resolution against the request URL.
    private func redirectTarget(_ headers: HTTPHeaders) -> URL? {
        guard let location = headers["Location"], !location.isEmpty else { return nil }
        var resolved: UnsafePointer<CChar>?
        if courier_curl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &resolved) == CURLE_OK, let resolved,
            let url = URL(string: String(cString: resolved))
        {
            return url
        }
        return URL(string: location, relativeTo: request.url)?.absoluteURL
    }

    static func responseVersion(_ curlVersion: Int) -> HTTPResponse.Version? {
        switch curlVersion {
        case Int(CURL_HTTP_VERSION_1_0): .http1_0
        case Int(CURL_HTTP_VERSION_1_1): .http1_1
        case Int(CURL_HTTP_VERSION_2_0): .http2
        case Int(CURL_HTTP_VERSION_3): .http3
        default: nil
        }
    }

    // MARK: Response body

    /// `CURLOPT_WRITEFUNCTION`: one chunk of body as received. Returning `CURL_WRITEFUNC_PAUSE` leaves
    /// the chunk with libcurl, which delivers it again after `curl_easy_pause(CONT)`; see
    /// ``ResponseBodyDelivery``.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        if hasPendingFailure { return 0 }
        switch body.receive(chunk) {
        case .accepted:
            if noticeWindowOpen, body.hasDeliveredDeclaredLength { closeNoticeWindow() }
            // The flag first: it is already set for every chunk of a pass after the first.
            if !flushesAtPassEnd && body.hasGathered {
                flushesAtPassEnd = true
                loop.flushAtPassEnd(self)
            }
            return chunk.count
        case .paused:
            return courier_curl_writefunc_pause
        case .failed(let failure):
            pendingFailure = failure
            return 0
        }
    }

    /// The consumer drained its buffer: take the paused chunk back. A failure is reported by the
    /// write callback once libcurl delivers the chunk again.
    func responseDemandArrived() {
        switch body.demandArrived(draining: !hasPendingFailure) {
        case .stayPaused:
            return
        case .resume(let failure):
            if let failure { pendingFailure = failure }
            applyPauseState()
        }
    }

    // MARK: Request body

    /// `CURLOPT_READFUNCTION`: fills libcurl's buffer from the body reader or the producer pipe.
    func sendBody(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch upload.fill(buffer) {
        case .bytes(let count):
            return count
        case .end:
            return 0
        case .pause(let instant):
            upload.isPaused = true
            if let instant { loop.scheduleRequestBodyUnpause(id, at: instant) }
            return courier_curl_readfunc_pause
        case .failed(let failure):
            pendingFailure = failure
            return courier_curl_readfunc_abort
        }
    }

    /// More request body is available (producer pushed, or a reader's pause expired).
    func requestBodyReady() {
        guard upload.isPaused else { return }
        upload.isPaused = false
        applyPauseState()
    }

    /// `CURLOPT_SEEKFUNCTION`: libcurl rewinds when it resends a body on a fresh connection.
    func rewindBody(offset: Int64, origin: Int32) -> Int32 {
        do {
            return try upload.rewind(toOffset: offset, fromStart: origin == SEEK_SET)
                ? courier_curl_seekfunc_ok : courier_curl_seekfunc_cantseek
        } catch {
            // libcurl then fails the transfer with its own "send failed: cannot rewind" code, which
            // does not say why the reader refused.
            loop.diagnose(.warning, "the request body cannot be rewound for a resend: \(error)", about: self)
            return courier_curl_seekfunc_cantseek
        }
    }

    func reportUploadProgress(force: Bool) {
        guard !hasDeliveredHead, let progress = upload.progress(force: force) else { return }
        events.yield(.uploadProgress(progress))
    }

    // MARK: Pausing

    func setSuspended(_ value: Bool) {
        guard suspended != value else { return }
        suspended = value
        applyPauseState()
    }

    /// Tells libcurl the union of the reasons to pause. `curl_easy_pause` may call the write or read
    /// callback before it returns (delivering a held chunk), and they may pause again.
    private func applyPauseState() {
        var mask = 0
        if suspended {
            mask = courier_curl_pause_all
        } else {
            if body.isPaused { mask |= courier_curl_pause_recv }
            if upload.isPaused { mask |= courier_curl_pause_send }
        }
        let code = curl_easy_pause(easy, Int32(mask))
        if code != CURLE_OK && !hasPendingFailure {
            pendingFailure = CurlErrorMapping.error(
                code: Int(code.rawValue),
                errorBuffer: "",
                url: request.url,
                metrics: nil
            )
        }
    }

    // MARK: Completion

    /// The transfer ended inside libcurl with `code` (already removed from the multi handle).
    func complete(code: CURLcode) {
        body.flushGathered()
        let metrics = collectMetrics()
        var completion = TransferCompletion(code: Int(code.rawValue), url: request.url, metrics: metrics)
        completion.pendingFailure = pendingFailure
        completion.excessBodyFailure = excessBodyFailure
        completion.sendsOneShotBody = upload.isOneShot
        completion.hasDeliveredHead = hasDeliveredHead
        completion.answeredChallenge = head.answeredChallenge
        if code != CURLE_OK {
            completion.errorText = String(cString: errorBuffer)
            completion.revocationFailure = trustEvaluation?.revocationFailure
            completion.describingProxyTrustFailure = { [self] in describingProxyTrustFailure($0) }
        }
        switch completion.outcome(finishingBody: { body.finish() }) {
        case .failed(let failure):
            finish(failure: failure)
        case .completed(let challengeResponse):
            if let challengeResponse {
                finalResponse = challengeResponse
                events.yield(.response(challengeResponse))
            }
            if !(redirectLocation != nil && body.discardsBody) && request.method != .head {
                body.reportProgress(force: true)
            }
            finished = true
            requestBodyPipe?.close()
            download?.close()
            events.yield(.completed(metrics))
        }
    }

    /// Ends the transfer with `failure`; the handle is already out of the multi handle.
    func finish(failure: TransportError) {
        guard !finished else { return }
        finished = true
        body.flushGathered()
        requestBodyPipe?.close()
        download?.close()
        events.yield(.failed(failure.metrics == nil ? failure.with(metrics: collectMetrics()) : failure))
    }

    // MARK: Metrics

    func collectMetrics() -> TransferMetrics {
        var metrics = TransferMetrics()
        metrics.startDate = startDate
        metrics.trustEvaluation = trustEvaluation?.record
        func duration(_ info: CURLINFO) -> Duration {
            var value: curl_off_t = 0
            guard courier_curl_easy_getinfo_off(easy, info, &value) == CURLE_OK else { return .zero }
            return .microseconds(Int64(value))
        }
        func size(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            guard courier_curl_easy_getinfo_off(easy, info, &value) == CURLE_OK else { return 0 }
            return Int64(value)
        }
        func long(_ info: CURLINFO) -> Int? {
            var value = 0
            guard courier_curl_easy_getinfo_long(easy, info, &value) == CURLE_OK else { return nil }
            return value
        }
        func string(_ info: CURLINFO) -> String? {
            var value: UnsafePointer<CChar>?
            guard courier_curl_easy_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        metrics.nameLookup = duration(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connect = duration(CURLINFO_CONNECT_TIME_T)
        metrics.tlsHandshake = duration(CURLINFO_APPCONNECT_TIME_T)
        metrics.requestStart = duration(CURLINFO_PRETRANSFER_TIME_T)
        metrics.firstByte = duration(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.total = duration(CURLINFO_TOTAL_TIME_T)
        metrics.requestHeaderBytes = Int64(long(CURLINFO_REQUEST_SIZE) ?? 0)
        metrics.responseHeaderBytes = Int64(long(CURLINFO_HEADER_SIZE) ?? 0)
        // Body bytes as handed to libcurl: SIZE_UPLOAD_T would count chunked framing too.
        metrics.requestBodyBytes = upload.sentBytes
        metrics.responseBodyBytes = size(CURLINFO_SIZE_DOWNLOAD_T)
        metrics.decodedBodyBytes = body.decodedBytes
        metrics.protocolVersion = long(CURLINFO_HTTP_VERSION).flatMap(Self.responseVersion)
        metrics.remoteAddress = string(CURLINFO_PRIMARY_IP)
        metrics.remotePort = long(CURLINFO_PRIMARY_PORT).flatMap { $0 > 0 ? $0 : nil }
        metrics.localAddress = string(CURLINFO_LOCAL_IP)
        metrics.localPort = long(CURLINFO_LOCAL_PORT).flatMap { $0 > 0 ? $0 : nil }
        let connects = long(CURLINFO_NUM_CONNECTS) ?? 0
        metrics.reusedConnection = connects == 0 && (metrics.remoteAddress != nil || finalResponse != nil)
        return metrics
    }
}

extension TransportError {
    /// The same error with `metrics` attached, or carrying the response head it refused.
    func with(metrics: TransferMetrics? = nil, response: HTTPResponse? = nil) -> TransportError {
        TransportError(
            category: category,
            code: code,
            message: message,
            url: url,
            metrics: metrics ?? self.metrics,
            underlying: underlying,
            response: response ?? self.response
        )
    }
}
