internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierDiagnostics
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// An informational line of libcurl's debug output (`CURLINFO_TEXT`) that the transport acts on.
///
/// libcurl 7.88 notices some protocol faults without failing the transfer for them; it only says so
/// in such a line:
/// - `Excess found in a read: excess = 10, size = 10, maxdownload = 10, bytecount = 0`: the server
///   sent more body than its `Content-Length` (an HTTP/1.1 framing error, the raw material of response
///   smuggling). libcurl delivers the declared bytes, drops the rest, closes the connection and
///   reports success.
/// - `recveived GOAWAY, error=2, last_stream=1` (sic in 7.88; `received` in later releases): the
///   server ended the HTTP/2 connection. With an error code that is a connection error (RFC 9113
///   §5.4.1, §6.8), yet libcurl keeps waiting for the rest of the stream while the socket stays open.
///
/// Both happen while a body is read, and a GOAWAY also between an HTTP/2 request and its head, so the
/// transport turns libcurl's debug output on only then: with `CURLOPT_VERBOSE=1` for whole
/// transfers, libcurl formats every informational line (request headers, TLS records, HTTP/2
/// pseudo-headers), which measurably slows small requests.
enum LibcurlNotice: Equatable {
    /// The body was longer than `Content-Length` by `bytes`.
    case excessBody(bytes: Int)
    /// An HTTP/2 GOAWAY frame arrived with this error code (0 is a graceful shutdown).
    case goaway(errorCode: Int)

    /// Recognises the informational lines that matter; nil for every other line.
    static func parse(_ line: some StringProtocol) -> LibcurlNotice? {
        if let prefix = LibcurlText.excessBody.matchedPrefix(of: line) {
            let rest = line.dropFirst(prefix.count)
            return .excessBody(bytes: Int(rest.prefix(while: \.isNumber)) ?? 0)
        }
        if let prefix = LibcurlText.goaway.matchedPrefix(of: line) {
            let rest = line.dropFirst(prefix.count)
            guard let code = Int(rest.prefix(while: \.isNumber)) else { return nil }
            return .goaway(errorCode: code)
        }
        return nil
    }

    /// Whether a debug line can be one of the lines ``parse(_:)`` recognises, from its first byte:
    /// the debug callback runs for every informational line, so it rejects the rest without making
    /// a string.
    static func mayStart(with byte: UInt8) -> Bool {
        firstBytes.contains(byte)
    }

    /// The first bytes of every fragment ``parse(_:)`` looks for.
    private static let firstBytes: Set<UInt8> = Set(
        [LibcurlText.excessBody, .goaway].flatMap(\.fragments).compactMap(\.utf8.first)
    )
}

extension CurlTransferState {
    /// `CURLOPT_DEBUGFUNCTION` (with `CURLOPT_VERBOSE=1`): looks at libcurl's informational lines for
    /// the faults it tolerates silently; every other kind of debug data, and every line that cannot be
    /// a `LibcurlNotice` by its first byte, returns at once.
    static let debugCallback: curl_debug_callback = { _, type, text, size, userdata in
        guard type == CURLINFO_TEXT, size > 0, let text, let userdata,
            LibcurlNotice.mayStart(with: UInt8(bitPattern: text[0]))
        else { return 0 }
        let transfer = Unmanaged<CurlTransferState>.fromOpaque(userdata).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: text, count: size), as: UTF8.self)
        if let notice = LibcurlNotice.parse(line) { transfer.noticed(notice) }
        return 0
    }

    /// The debug callback of a transport with a diagnostics handler (chosen once, in the transport's
    /// options, so that ``debugCallback`` stays as cheap as before): like it, and every other
    /// informational line read in the notice window goes to the handler at `trace`.
    static let tracingDebugCallback: curl_debug_callback = { _, type, text, size, userdata in
        guard type == CURLINFO_TEXT, size > 0, let text, let userdata else { return 0 }
        let transfer = Unmanaged<CurlTransferState>.fromOpaque(userdata).takeUnretainedValue()
        if LibcurlNotice.mayStart(with: UInt8(bitPattern: text[0])),
            let notice = LibcurlNotice.parse(
                String(decoding: UnsafeRawBufferPointer(start: text, count: size), as: UTF8.self)
            )
        {
            transfer.noticed(notice)
        } else {
            transfer.traceLibcurlLine(text, size)
        }
        return 0
    }

    /// Hands an informational line libcurl wrote during the notice window to the diagnostics, at
    /// `trace`, without its line break.
    private func traceLibcurlLine(_ text: UnsafeMutablePointer<CChar>, _ size: Int) {
        var length = size
        while length > 0, text[length - 1] == 0x0A || text[length - 1] == 0x0D { length -= 1 }
        loop.diagnose(
            .trace,
            String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self),
            metadata: ["curl.info": "text"],
            about: self
        )
    }

    /// Records what a line says: a fault becomes the transfer's failure.
    func noticed(_ notice: LibcurlNotice) {
        switch notice {
        case .excessBody(let bytes):
            loop.diagnose(
                .warning,
                "libcurl noticed \(bytes) bytes of body beyond Content-Length and dropped them",
                metadata: ["curl.notice": "excessBody", "excessBytes": String(bytes)],
                about: self
            )
            // libcurl ends the transfer with success; `complete(code:)` turns that into this failure.
            guard excessBodyFailure == nil else { return }
            excessBodyFailure = TransportError(
                category: .protocolViolation,
                message: "the response body is longer than its Content-Length (\(bytes) excess bytes)",
                url: request.url
            )
        case .goaway(let code):
            loop.diagnose(
                code == 0 ? .notice : .warning,
                "libcurl noticed an HTTP/2 GOAWAY with error code \(code)",
                metadata: ["curl.notice": "goaway", "http2.errorCode": String(code)],
                about: self
            )
            guard code != 0, !hasPendingFailure, !finished else { return }
            let failure = TransportError(
                category: .protocolViolation,
                message: "the server ended the HTTP/2 connection with GOAWAY (error code \(code))",
                url: request.url
            )
            pendingFailure = failure
            // libcurl would wait for the rest of the stream on a socket the server left open: the loop
            // fails every transfer on this connection after libcurl's current run.
            loop.connectionBroke(under: self, failure: failure)
        }
    }

    /// Turns libcurl's debug output on for the body of a response that can carry a silent fault: an
    /// HTTP/1.x body framed by `Content-Length` (excess) or any HTTP/2 body (GOAWAY); turns it off
    /// when the window opened before the head (``openNoticeWindowOnceRequestIsSent()``) and this body
    /// needs none.
    ///
    /// libcurl reads `CURLOPT_VERBOSE` each time it would log (7.88: `data->set.verbose`), so setting
    /// it from the header callback takes effect for the rest of the same read, where the excess
    /// check runs.
    ///
    /// - Parameters:
    ///   - version: The response's HTTP version.
    ///   - headers: The response head's fields.
    ///   - hasContentLength: Whether `headers` has a `Content-Length` field (the caller knows it
    ///     from the parser's framing facts).
    func openNoticeWindow(version: HTTPResponse.Version, headers: HTTPHeaders, hasContentLength: Bool) {
        watchesForEarlyGoaway = false
        guard request.method != .head, version == .http2 || hasContentLength else {
            if noticeWindowOpen { closeNoticeWindow() }
            if loop.hasDiagnostics, request.method != .head { reportUncheckableFraming(headers) }
            return
        }
        guard !noticeWindowOpen else { return }
        turnNoticeWindowOn()
    }

    /// A GOAWAY with an error can also arrive after the request and before any head, naming the
    /// request's stream as processed: libcurl 7.88 then logs it and waits for a head that never
    /// comes, on a socket the server keeps open, until a timeout. So a transfer that may speak
    /// HTTP/2 turns the debug output on from its progress callback once libcurl has counted request
    /// bytes (`CURLINFO_REQUEST_SIZE`): not earlier, so that the connection's set-up and the
    /// request's own lines are never formatted. libcurl calls the progress callback after each pass
    /// over the transfer, so the window is open before the reply to a request just sent is read.
    func openNoticeWindowOnceRequestIsSent() {
        var requestSize = 0
        guard courier_curl_easy_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &requestSize) == CURLE_OK,
            requestSize > 0, !hasDeliveredHead
        else { return }
        watchesForEarlyGoaway = false
        if !noticeWindowOpen { turnNoticeWindowOn() }
    }

    private func turnNoticeWindowOn() {
        let code = courier_curl_easy_setopt_long(easy, CURLOPT_VERBOSE, 1)
        noticeWindowOpen = code == CURLE_OK
        if !noticeWindowOpen {
            loop.diagnose(
                .warning,
                "the over-long body and GOAWAY checks are skipped: libcurl rejected CURLOPT_VERBOSE (code \(code.rawValue))",
                metadata: ["check": "libcurlNotices"],
                about: self
            )
        }
    }

    /// A body with neither `Content-Length` nor chunked framing ends when the server closes the
    /// connection (RFC 9112 §6.3, rule 8): a truncated one cannot be told from a complete one, so
    /// there is nothing to check, and the diagnostics say so.
    private func reportUncheckableFraming(_ headers: HTTPHeaders) {
        guard !headers.contains(name: "Transfer-Encoding") else { return }
        loop.diagnose(
            .debug,
            "the body is delimited by the connection's close: its length cannot be checked",
            metadata: ["check": "bodyLength"],
            about: self
        )
    }

    /// Turns the debug output off once the declared body has arrived: libcurl checks for excess
    /// before it hands the last bytes over, and a later GOAWAY no longer concerns this response.
    func closeNoticeWindow() {
        noticeWindowOpen = false
        let code = courier_curl_easy_setopt_long(easy, CURLOPT_VERBOSE, 0)
        if code != CURLE_OK {
            // The debug callback then keeps running for this transfer's remaining lines: slower,
            // never wrong.
            loop.diagnose(.error, "libcurl rejected turning CURLOPT_VERBOSE off (code \(code.rawValue))", about: self)
        }
    }

    /// The socket of the transfer's connection, or nil when it has none.
    var activeSocket: Int32? {
        var socket: curl_socket_t = -1
        guard courier_curl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else {
            return nil
        }
        return socket
    }
}
