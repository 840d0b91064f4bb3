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
        if parser.byteCount + line.count > maximumHeaderSize {
            return stop(.limitExceeded, "the response head is larger than \(maximumHeaderSize) bytes")
        }
        switch parser.consume(line) {
        case .pending:
            return line.count
        case .interim:
            // libcurl accepts interim heads without end (until 300 KiB of them, 72 s at 5 ms each).
            interimResponses += 1
            guard interimResponses <= Self.maximumInterimResponses else {
                return stop(
                    .protocolViolation,
                    "the server sent more than \(Self.maximumInterimResponses) interim (1xx) responses"
                )
            }
            return line.count
        case .malformed(let reason):
            return stop(.protocolViolation, reason)
        case .final(let status, let parsedVersion, let headers):
            if isChallengeLibcurlAnswers(status: status, headers: headers) {
                // libcurl sends the request again with the credential; this head and its body are
                // not the response (TransferEvent's order contract).
                answeredChallenge = HTTPResponse(
                    status: HTTPStatus(code: status),
                    headers: headers,
                    url: request.url,
                    version: parsedVersion
                )
                return line.count
            }
            return acceptFinalHead(status: status, version: parsedVersion, headers: headers, lineCount: line.count)
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
        if let violation = Self.framingViolation(headers, version: version) {
            return stop(.protocolViolation, violation)
        }
        openNoticeWindow(version: version, headers: headers)
        // The last upload progress precedes the head (TransferEvent's order), unthrottled.
        if case .none = requestBody {} else { reportUploadProgress(sent: sentBodyBytes, force: true) }
        let response = HTTPResponse(
            status: HTTPStatus(code: status),
            headers: headers,
            url: request.url,
            version: version
        )
        if Self.redirectStatuses.contains(status), let location = redirectTarget(headers) {
            redirectLocation = location
            // A redirect's body is streamed after `.redirect` (a session that does not follow returns
            // it as the result), but never written to a download file that the next hop will fill.
            discardsBody = download != nil
            lastDownloadProgress = .now
            expectedBodyBytes = DownloadFile.identityLength(headers)
            prepareContentDecoding(headers)
            events.yield(.redirect(response, location: location))
            return lineCount
        }
        finalResponse = response
        // The first progress event comes a progress interval after the head, so a small response
        // costs one final progress event rather than two.
        lastDownloadProgress = .now
        expectedBodyBytes = DownloadFile.identityLength(headers)
        if let download {
            do {
                discardsBody = try download.accept(status: status, headers: headers, url: request.url) == .discard
            } catch {
                pendingFailure = error
                return 0
            }
            expectedBodyBytes = download.expectedLength
        }
        prepareContentDecoding(headers)
        events.yield(.response(response))
        return lineCount
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether a head is the first `401` challenge for a credential libcurl will answer (a scheme
    /// the credential allows, named in `WWW-Authenticate`). A second `401` is the response: the
    /// server refused the answer.
    private func isChallengeLibcurlAnswers(status: Int, headers: HTTPHeaders) -> Bool {
        guard status == 401, answersChallenge, answeredChallenge == nil, let credential = request.credential else {
            return false
        }
        return headers.values(for: "WWW-Authenticate").contains { challenge in
            let scheme = challenge.prefix { $0 != " " && $0 != "," }.lowercased()
            return (scheme == "digest" && credential.schemes.contains(.digest))
                || (scheme == "basic" && credential.schemes.contains(.basic))
        }
    }

    /// Interim heads accepted before a response: `100 Continue`, `102 Processing`, `103 Early Hints`
    /// and an h2c `101` are each sent once or a few times, never more than a handful.
    static let maximumInterimResponses = 16

    /// Framing that libcurl tolerates but that makes the body length ambiguous (request smuggling's
    /// raw material): `Transfer-Encoding` together with `Content-Length` (RFC 9112 §6.1), or
    /// `Content-Length` values that disagree or are not numbers (RFC 9110 §8.6).
    static func framingViolation(_ headers: HTTPHeaders, version: HTTPResponse.Version) -> String? {
        if ResponseFraming.isPlainlyFramed(headers) { return nil }  // one pass, no allocation
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let lengths = headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }.map {
            String($0.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        }
        if version == .http1_0 || version == .http1_1, headers.contains(name: "Transfer-Encoding"), !lengths.isEmpty {
            return "the response has both Transfer-Encoding and Content-Length"
        }
        guard let first = lengths.first else { return nil }
        guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return "the response has an invalid Content-Length \(first.debugDescription)"
        }
        if lengths.contains(where: { $0 != first }) {
            return "the response has conflicting Content-Length values \(lengths.joined(separator: ", "))"
        }
        return nil
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
    /// the chunk with libcurl, which delivers it again after `curl_easy_pause(CONT)`; so the room
    /// check comes before anything is counted. An encoded body goes through its decoder
    /// (`receiveEncodedBody`).
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        if pendingFailure != nil { return 0 }
        if discardsBody || !hasDeliveredHead { return chunk.count }
        if let contentEncoding { return receiveEncodedBody(chunk, encoding: contentEncoding) }
        if let maximumBodySize, decodedBytes + Int64(chunk.count) > maximumBodySize {
            return stop(.limitExceeded, "the decoded response body is larger than \(maximumBodySize) bytes")
        }
        if let download {
            do {
                try download.write(chunk, url: request.url)
            } catch {
                pendingFailure = error
                return 0
            }
        } else {
            guard events.hasRoomForBody() else {
                receivePaused = true
                return courier_curl_writefunc_pause
            }
            events.yield(.body(Data(chunk)))
        }
        decodedBytes += Int64(chunk.count)
        if noticeWindowOpen, let expectedBodyBytes, decodedBytes >= expectedBodyBytes { closeNoticeWindow() }
        reportDownloadProgress(force: false)
        return chunk.count
    }

    func reportDownloadProgress(force: Bool) {
        let now = ContinuousClock.now
        if !force, let last = lastDownloadProgress, last.duration(to: now) < Self.progressInterval { return }
        lastDownloadProgress = now
        if let download {
            events.yield(.downloadProgress(TransferProgress(completed: download.length, total: expectedBodyBytes)))
        } else {
            events.yield(.downloadProgress(TransferProgress(completed: decodedBytes, total: expectedBodyBytes)))
        }
    }

    /// The consumer drained its buffer: take the paused chunk back.
    func responseDemandArrived() {
        guard receivePaused else { return }
        // Decoded output the decoder still holds goes first; libcurl's held chunk only after it.
        // A failure is reported by the write callback once libcurl delivers the chunk again.
        if let bodyDecoder, pendingFailure == nil, case .paused = drain(bodyDecoder) { return }
        receivePaused = false
        applyPauseState()
    }

    // MARK: Request body

    /// `CURLOPT_READFUNCTION`: fills libcurl's buffer from the body reader or the producer pipe.
    func sendBody(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch requestBody {
        case .none:
            return 0
        case .reader(let reader):
            do {
                switch try reader.read(into: buffer) {
                case .bytes(let count) where count > 0:
                    sentBodyBytes += Int64(count)
                    return count
                case .bytes:
                    // A reader with nothing now but not finished: ask again very soon.
                    return pauseSending(until: .now + .milliseconds(1))
                case .end:
                    return 0
                case .paused(let instant):
                    return pauseSending(until: instant)
                }
            } catch {
                pendingFailure = TransportError(
                    category: .requestBodyFailed,
                    message: "reading the request body failed: \(error)",
                    url: request.url,
                    underlying: error
                )
                return courier_curl_readfunc_abort
            }
        case .pipe(let pipe):
            switch pipe.pull(into: buffer) {
            case .bytes(let count):
                sentBodyBytes += Int64(count)
                return count
            case .end:
                return 0
            case .empty:
                sendPaused = true
                return courier_curl_readfunc_pause
            case .failed(let error):
                pendingFailure = TransportError(
                    category: .requestBodyFailed,
                    message: "the request body producer failed: \(error)",
                    url: request.url,
                    underlying: error
                )
                return courier_curl_readfunc_abort
            }
        }
    }

    private func pauseSending(until instant: ContinuousClock.Instant) -> Int {
        sendPaused = true
        loop.scheduleRequestBodyUnpause(id, at: instant)
        return courier_curl_readfunc_pause
    }

    /// More request body is available (producer pushed, or a reader's pause expired).
    func requestBodyReady() {
        guard sendPaused else { return }
        sendPaused = false
        applyPauseState()
    }

    /// `CURLOPT_SEEKFUNCTION`: libcurl rewinds when it resends a body on a fresh connection.
    func rewindBody(offset: Int64, origin: Int32) -> Int32 {
        guard case .reader(let reader) = requestBody, offset == 0, origin == SEEK_SET else {
            return courier_curl_seekfunc_cantseek
        }
        do {
            try reader.rewind()
            sentBodyBytes = 0
            return courier_curl_seekfunc_ok
        } catch {
            // libcurl then fails the transfer with its own "send failed: cannot rewind" code, which
            // does not say why the reader refused.
            loop.diagnose(.warning, "the request body cannot be rewound for a resend: \(error)", about: self)
            return courier_curl_seekfunc_cantseek
        }
    }

    func reportUploadProgress(sent: Int64, force: Bool) {
        guard sent != lastUploadBytes, !hasDeliveredHead else { return }
        let now = ContinuousClock.now
        if !force, let last = lastUploadProgress, last.duration(to: now) < Self.progressInterval { return }
        lastUploadProgress = now
        lastUploadBytes = sent
        events.yield(.uploadProgress(TransferProgress(completed: sent, total: request.body.length)))
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
            if receivePaused { mask |= courier_curl_pause_recv }
            if sendPaused { mask |= courier_curl_pause_send }
        }
        let code = curl_easy_pause(easy, Int32(mask))
        if code != CURLE_OK && pendingFailure == nil {
            pendingFailure = CurlErrorMapping.error(
                code: Int(code.rawValue),
                errorBuffer: "",
                url: request.url,
                metrics: nil
            )
        }
    }

    // MARK: Completion

    /// Records why a callback stops the transfer and returns the value that makes libcurl stop.
    private func stop(_ category: TransportError.Category, _ message: String) -> Int {
        pendingFailure = TransportError(category: category, message: message, url: request.url)
        return 0
    }

    /// The transfer ended inside libcurl with `code` (already removed from the multi handle).
    func complete(code: CURLcode) {
        let metrics = collectMetrics()
        if let pendingFailure {
            finish(failure: pendingFailure.with(metrics: metrics))
            return
        }
        if code == CURLE_SEND_FAIL_REWIND, case .pipe = requestBody {
            // libcurl must send the body again (an authentication challenge, a connection that died
            // before the response) and a one-shot producer cannot start over.
            let refusal = HTTPValueError(
                code: .bodyAlreadyConsumed,
                value: "producer",
                reason: "libcurl had to send the one-shot body again"
            )
            finish(failure: TransportError.requestBodyAlreadyConsumed(refusal, url: request.url).with(metrics: metrics))
            return
        }
        guard code == CURLE_OK else {
            var message = String(cString: errorBuffer)
            if code == CURLE_PEER_FAILED_VERIFICATION, let reason = metrics.trustEvaluation?.reason {
                // libcurl only says "SSL certificate problem: application verification failure".
                message = "the trust policy rejected the server: \(reason)"
            }
            if code == CURLE_PEER_FAILED_VERIFICATION { message = describingProxyTrustFailure(message) }
            if code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION,
                let failure = trustEvaluation?.revocationFailure, let reason = metrics.trustEvaluation?.reason
            {
                // A revocation rejection carries its typed error. A stapled OCSP response is judged
                // after the certificate-verify callback; OpenSSL then fails the handshake with a
                // bad_certificate_status_response alert, which libcurl reports as a TLS failure (35).
                finish(
                    failure: TransportError(
                        category: .serverTrustFailed,
                        code: Int(code.rawValue),
                        message: "the trust policy rejected the server: \(reason)",
                        url: request.url,
                        metrics: metrics,
                        underlying: failure
                    )
                )
                return
            }
            finish(
                failure: CurlErrorMapping.error(
                    code: Int(code.rawValue),
                    errorBuffer: message,
                    url: request.url,
                    metrics: metrics,
                    context: CurlErrorMapping.Context(
                        inResponseHead: !hasDeliveredHead,
                        inResponseBody: hasDeliveredHead,
                        isHTTP2: metrics.protocolVersion == .http2
                    )
                )
            )
            return
        }
        if let excessBodyFailure {
            finish(failure: excessBodyFailure.with(metrics: metrics))
            return
        }
        if let decodingFailure = finishContentDecoding() {
            finish(failure: decodingFailure.with(metrics: metrics))
            return
        }
        if !hasDeliveredHead, let answeredChallenge {
            // libcurl did not send the request again (no scheme it could answer with): the
            // challenge is the response after all, without its body.
            finalResponse = answeredChallenge
            events.yield(.response(answeredChallenge))
        }
        guard hasDeliveredHead else {
            finish(
                failure: TransportError(
                    category: .protocolViolation,
                    message: "the server closed the exchange without a complete response head",
                    url: request.url,
                    metrics: metrics
                )
            )
            return
        }
        if hasDeliveredHead && !(redirectLocation != nil && discardsBody) && request.method != .head {
            reportDownloadProgress(force: true)
        }
        finished = true
        requestBodyPipe?.close()
        download?.close()
        events.yield(.completed(metrics))
    }

    /// Ends the transfer with `failure`; the handle is already out of the multi handle.
    func finish(failure: TransportError) {
        guard !finished else { return }
        finished = true
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
        metrics.requestBodyBytes = sentBodyBytes
        metrics.responseBodyBytes = size(CURLINFO_SIZE_DOWNLOAD_T)
        metrics.decodedBodyBytes = decodedBytes
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
    /// The same error with metrics attached.
    func with(metrics: TransferMetrics) -> TransportError {
        TransportError(
            category: category,
            code: code,
            message: message,
            url: url,
            metrics: metrics,
            underlying: underlying
        )
    }
}
