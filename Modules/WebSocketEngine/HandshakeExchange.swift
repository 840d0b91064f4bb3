internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import CourierWebSocket
internal import FoundationEssentials

/// One opening handshake on the wire: the raw connection opened, the request head written, the
/// response head read and checked, all within the request's timeout.
struct HandshakeExchange: Sendable {
    let handshake: WebSocketHandshake
    /// The upgrade request as it goes out (cookies added).
    let request: HTTPRequest
    let transport: any HTTPTransport
    /// Where the response's `Set-Cookie` fields go, or `nil` when the request handles no cookies.
    let cookieStore: (any CookieStore)?

    /// A connection whose handshake passed.
    struct Opened: Sendable {
        let raw: any RawConnection
        let response: HTTPResponse
        let agreement: WebSocketHandshake.Agreement
        let deflater: MessageDeflater?
        /// What the server sent after the head: its first frames.
        let remainder: [UInt8]
    }

    private enum Outcome: Sendable {
        case finished(Result<Opened, WebSocketError>)
        case timedOut
    }

    /// Runs the exchange, failing with `timedOut` when it outlives `timeout`.
    func run(timeout: Duration?) async throws(WebSocketError) -> Opened {
        let opening = OpeningConnection()
        guard let timeout else { return try await exchange(opening).get() }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask { .finished(await exchange(opening)) }
            group.addTask {
                // Cancelled when the exchange finishes first: its answer is then never read.
                try? await Task.sleep(for: timeout)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            if case .timedOut = first {
                // Closing the connection ends a read or write in progress, whether or not the
                // connection honours cancellation; the exchange then returns.
                await opening.abandon()
            }
            for await late in group {
                if case .finished(.success(let opened)) = late { await opened.raw.close() }
            }
            return first
        }
        switch outcome {
        case .finished(let result): return try result.get()
        case .timedOut:
            throw .transport(
                TransportError(
                    category: .timedOut,
                    message: "the WebSocket handshake took longer than \(timeout)",
                    url: request.url
                )
            )
        }
    }

    private func exchange(_ opening: OpeningConnection) async -> Result<Opened, WebSocketError> {
        let raw: any RawConnection
        do {
            raw = try await transport.openRawConnection(to: request, options: RawConnectionOptions())
        } catch {
            return .failure(.transport(Self.transportError(error, url: request.url)))
        }
        guard await opening.opened(raw) else {
            return .failure(.transport(TransportError(category: .timedOut, message: "timed out", url: request.url)))
        }
        do {
            let opened = try await handshake(over: raw)
            return .success(opened)
        } catch {
            await raw.close()
            return .failure(error)
        }
    }

    private func handshake(over raw: any RawConnection) async throws(WebSocketError) -> Opened {
        do {
            try await raw.write(HandshakeRequestHead.bytes(for: request))
        } catch {
            throw .transport(Self.transportError(error, url: request.url))
        }
        var parser = ResponseHeadParser(url: request.url)
        let head: ResponseHeadParser.Head
        while true {
            let bytes: [UInt8]?
            do {
                bytes = try await raw.read()
            } catch {
                throw .transport(Self.transportError(error, url: request.url))
            }
            guard let bytes else {
                throw .transport(
                    TransportError(
                        category: .connectionLost,
                        message: "the server closed the connection before it answered the WebSocket handshake",
                        url: request.url
                    )
                )
            }
            if let parsed = try parser.append(bytes) {
                head = parsed
                break
            }
        }
        await storeCookies(of: head.response)
        let agreement = try handshake.validate(head.response, sha1: SHA1Digest.digest)
        let deflater = try agreement.deflate.map { parameters throws(WebSocketError) in
            try MessageDeflater(parameters: parameters)
        }
        return Opened(
            raw: raw,
            response: head.response,
            agreement: agreement,
            deflater: deflater,
            remainder: head.remainder
        )
    }

    private func storeCookies(of response: HTTPResponse) async {
        guard let cookieStore else { return }
        for value in response.headers.values(for: "Set-Cookie") {
            guard let cookie = SetCookieParser.cookie(from: value, for: request.url, now: Date()) else { continue }
            // A store that refuses a cookie (a full jar) does not fail the handshake: the server's
            // answer stands, as it does for a transfer's response.
            try? await cookieStore.setCookie(cookie)
        }
    }

    static func transportError(_ error: any Error, url: URL?) -> TransportError {
        error as? TransportError
            ?? TransportError(category: .other, message: "\(error)", url: url, underlying: error)
    }
}

/// The connection a timed handshake is using, so that the deadline can close it.
final class OpeningConnection: Sendable {
    private struct State {
        var raw: (any RawConnection)?
        var isAbandoned = false
    }

    private let state = Lock(State())

    /// Records the connection; closes it and returns `false` when the deadline already passed.
    func opened(_ raw: any RawConnection) async -> Bool {
        let abandoned = state.withLock { state in
            state.raw = raw
            return state.isAbandoned
        }
        if abandoned { await raw.close() }
        return !abandoned
    }

    /// The deadline passed: closes the connection, or the one that opens later.
    func abandon() async {
        let raw = state.withLock { state in
            state.isAbandoned = true
            return state.raw
        }
        await raw?.close()
    }
}
