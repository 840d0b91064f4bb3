internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import CourierWebSocket
internal import FoundationEssentials

/// An open WebSocket over a `RawConnection`: a reader task that parses, assembles and answers, a
/// send gate that keeps messages whole, and the close handshake (RFC 6455 §5–§7).
///
/// The state sits behind the package's `Lock` and is never held across a suspension; measured
/// against an actor, a lock costs no hop per frame on the reader's path, and the reader runs on
/// the global executor without blocking it (every wait is a suspension).
///
/// Messages reach the app through a `BackpressuredChannel`: when it holds
/// `readHighWaterMark` messages, the reader's `send` suspends, so it stops calling `read()`, the
/// raw connection's buffer fills and stops reading the socket, and TCP holds the server back.
final class WebSocketEngineConnection: WebSocketConnection {
    /// The largest frame a message is cut into: big messages go out in pieces, so that a pong can
    /// go between them (RFC 6455 §5.4) and one write never holds more than this.
    static let fragmentSize = 1 << 20

    let handshakeResponse: HTTPResponse
    let agreement: WebSocketHandshake.Agreement
    let messages: WebSocketMessages

    private let raw: any RawConnection
    private let configuration: WebSocketConfiguration
    private let producer: BackpressuredChannel<WebSocketMessage, WebSocketError>.Producer
    private let deflater: MessageDeflater?
    private let gate = SendGate()
    private let state = Lock(State())

    private struct PendingPing: Sendable {
        let start: ContinuousClock.Instant
        var waiter: CheckedContinuation<Result<Duration, WebSocketError>, Never>?
        var answer: Result<Duration, WebSocketError>?
    }

    private struct State: Sendable {
        var rules = WebSocketConnectionState()
        var isFinished = false
        var failure: WebSocketError?
        var closeStatus: WebSocketClose?
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var pings: [UInt64: PendingPing] = [:]
        var nextPing: UInt64 = 0
        var timers: [Task<Void, Never>] = []
        /// The reader, parked while the app has `readHighWaterMark` messages unread.
        var demandWaiter: CheckedContinuation<Void, Never>?
        /// The app made room before the reader parked: it need not park.
        var demandSignalled = false
    }

    init(
        raw: any RawConnection,
        handshakeResponse: HTTPResponse,
        agreement: WebSocketHandshake.Agreement,
        configuration: WebSocketConfiguration,
        deflater: MessageDeflater?,
        received: [UInt8]
    ) {
        self.raw = raw
        self.handshakeResponse = handshakeResponse
        self.agreement = agreement
        self.configuration = configuration
        self.deflater = deflater
        let highWaterMark = max(1, configuration.readHighWaterMark)
        let (producer, consumer) = BackpressuredChannel<WebSocketMessage, WebSocketError>.makeChannel(
            highWaterMark: highWaterMark,
            lowWaterMark: highWaterMark / 2,
            size: { _ in 1 }
        )
        self.producer = producer
        messages = WebSocketMessages { () throws(WebSocketError) -> WebSocketMessage? in
            switch await consumer.next() {
            case .element(let message): return message
            case .end, .abandoned: return nil
            case .failure(let error): throw error
            }
        }
        producer.setHandlers(
            onDemand: { [weak self] in self?.wakeReader() },
            onTermination: { [weak self] in
                // The reading task was cancelled: its owner has gone away (RFC 6455 §7.4.1, 1001).
                guard let self else { return }
                Task { await self.close(code: .goingAway, reason: "") }
            }
        )
        let reader = Task { await self.read(received) }
        var timers = [reader]
        if let interval = configuration.pingInterval {
            timers.append(Task { await self.keepAlive(every: interval) })
        }
        state.withLock { $0.timers = timers }
    }

    var closeStatus: WebSocketClose? {
        state.withLock { $0.closeStatus }
    }

    // MARK: Sending

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        if let refusal = sendRefusal() { throw refusal }
        await gate.enter()
        defer { gate.leave() }
        var payload = message.payload
        var isCompressed = false
        if let deflater {
            payload = try deflater.compress(payload)
            isCompressed = true
        }
        let frames = WebSocketFrameEncoder.fragments(
            of: payload,
            opcode: message.opcode,
            isCompressed: isCompressed,
            maximumFragmentSize: Self.fragmentSize
        )
        for frame in frames {
            // Checked per frame: the reader may have echoed the server's close meanwhile, and
            // nothing but control frames may follow a close (RFC 6455 §5.5.1).
            if let refusal = sendRefusal() { throw refusal }
            try await write(frame)
        }
    }

    func ping() async throws(WebSocketError) -> Duration {
        let id = try registerPing(waiting: true)
        do {
            try await write(.ping(Self.pingPayload(id)))
        } catch {
            _ = state.withLock { $0.pings.removeValue(forKey: id) }
            throw error
        }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Duration, WebSocketError>, Never>) in
            let answer = state.withLock { state -> Result<Duration, WebSocketError>? in
                guard var pending = state.pings[id] else { return .failure(refusal(in: state)) }
                if let answer = pending.answer {
                    state.pings[id] = nil
                    return answer
                }
                pending.waiter = continuation
                state.pings[id] = pending
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
        return try result.get()
    }

    // MARK: Closing

    func close(code: WebSocketCloseCode, reason: String) async {
        enum Step {
            case done, wait
            case send(WebSocketFrame)
        }
        let step = state.withLock { state -> Step in
            if state.isFinished { return .done }
            guard let frame = state.rules.close(WebSocketClose(code: code, reason: reason)) else { return .wait }
            return .send(frame)
        }
        switch step {
        case .done:
            return
        case .wait:
            await waitUntilFinished()
        case .send(let frame):
            startCloseTimer()
            wakeReader()
            // Through the gate: a message being sent goes out whole before the close.
            await gate.enter()
            let written: WebSocketError?
            do {
                try await write(frame)
                written = nil
            } catch {
                written = error
            }
            gate.leave()
            if let written { await finish(written) }
            await waitUntilFinished()
        }
    }

    private func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if state.isFinished { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// After a close was sent or received, the server has the close timeout to finish the
    /// handshake and end the TCP connection (RFC 6455 §7.1.1); then the client drops it.
    private func startCloseTimer() {
        let timeout = configuration.closeTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self else { return }
            let answered = self.state.withLock { $0.rules.receivedClose != nil }
            await self.finish(answered ? nil : .closeTimedOut)
        }
        state.withLock { $0.timers.append(timer) }
    }

    // MARK: Reading

    private func read(_ received: [UInt8]) async {
        var parser = WebSocketFrameParser(configuration: configuration, agreement: agreement)
        var assembler = WebSocketMessageAssembler(configuration: configuration, agreement: agreement)
        let inflater: MessageInflater?
        do {
            inflater = try agreement.deflate.map { _ throws(WebSocketError) in try MessageInflater() }
        } catch {
            await fail(error)
            return
        }
        var bytes = received
        var closeReceived = false
        while true {
            if !closeReceived {
                parser.append(bytes)
                do {
                    while let frame = try parser.nextFrame() {
                        guard let output = try assembler.receive(frame, inflater: inflater) else { continue }
                        if try await handle(output) {
                            closeReceived = true
                            break
                        }
                    }
                } catch {
                    await fail(error)
                    return
                }
            }
            // After the server's close, bytes are read (and dropped) only to see the connection end.
            let next: [UInt8]?
            do {
                next = try await raw.read()
            } catch {
                let failure = Self.readFailure(error)
                await finish(closeReceived ? nil : .transport(failure))
                return
            }
            guard let next else {
                await finish(
                    closeReceived
                        ? nil
                        : .transport(
                            TransportError(
                                category: .connectionLost,
                                message: "the server ended the connection without a WebSocket close",
                                url: handshakeResponse.url
                            )
                        )
                )
                return
            }
            bytes = next
        }
    }

    /// Acts on one thing the assembler produced; returns whether it was the server's close.
    private func handle(_ output: WebSocketMessageAssembler.Output) async throws(WebSocketError) -> Bool {
        switch output {
        case .message(let message):
            await deliver(message)
            return false
        case .ping(let payload):
            let pong = state.withLock { $0.rules.receivedPing(payload) }
            if let pong { try await write(pong) }
            return false
        case .pong(let payload):
            receivedPong(payload)
            return false
        case .close(let close):
            let echo = state.withLock { $0.rules.receivedClose(close) }
            if let echo {
                startCloseTimer()
                try await write(echo)
            }
            return true
        }
    }

    /// Queues `message` for the app; waits first while `readHighWaterMark` messages are unread (the
    /// reader then reads nothing more from the socket: the backpressure). Once the close handshake
    /// has started the reader no longer waits, so that the server's close is read even when the app
    /// stopped reading; what arrives then is bounded by the close timeout.
    private func deliver(_ message: WebSocketMessage) async {
        while !producer.hasRoom() {
            let closing = state.withLock { $0.rules.phase != .open || $0.isFinished }
            if closing { break }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.demandSignalled || state.rules.phase != .open || state.isFinished {
                        state.demandSignalled = false
                        return true
                    }
                    state.demandWaiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        producer.yield(message)
    }

    /// The app made room (or the connection is closing): the parked reader goes on.
    private func wakeReader() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.demandWaiter else {
                state.demandSignalled = true
                return nil
            }
            state.demandWaiter = nil
            return waiter
        }
        waiter?.resume()
    }

    private func receivedPong(_ payload: [UInt8]) {
        guard payload.count == 8 else { return }
        let id = payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let waiter = state.withLock {
            state -> (CheckedContinuation<Result<Duration, WebSocketError>, Never>, Duration)? in
            guard var pending = state.pings[id] else { return nil }
            let elapsed = ContinuousClock.now - pending.start
            guard let waiter = pending.waiter else {
                pending.answer = .success(elapsed)
                state.pings[id] = pending
                return nil
            }
            state.pings[id] = nil
            return (waiter, elapsed)
        }
        if let (continuation, elapsed) = waiter { continuation.resume(returning: .success(elapsed)) }
    }

    // MARK: Keep-alive

    /// Pings every `interval`; a ping still unanswered when the next is due fails the connection
    /// (the peer or the path is gone, and TCP alone may take many minutes to notice).
    private func keepAlive(every interval: Duration) async {
        var outstanding: UInt64?
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            if let id = outstanding {
                let unanswered = state.withLock { state in
                    let pending = state.pings.removeValue(forKey: id)
                    return pending != nil && pending?.answer == nil && !state.isFinished
                }
                if unanswered {
                    await finish(
                        .transport(
                            TransportError(
                                category: .timedOut,
                                message: "the server did not answer a keep-alive ping within \(interval)",
                                url: handshakeResponse.url
                            )
                        )
                    )
                    return
                }
            }
            guard let id = try? registerPing(waiting: false) else { return }
            do {
                try await write(.ping(Self.pingPayload(id)))
            } catch {
                return
            }
            outstanding = id
        }
    }

    private func registerPing(waiting: Bool) throws(WebSocketError) -> UInt64 {
        let result = state.withLock { state -> Result<UInt64, WebSocketError> in
            guard state.rules.canSendMessages, !state.isFinished else {
                return .failure(refusal(in: state))
            }
            state.nextPing &+= 1
            state.pings[state.nextPing] = PendingPing(start: .now)
            return .success(state.nextPing)
        }
        return try result.get()
    }

    private static func pingPayload(_ id: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: id >> UInt64(56 - 8 * $0)) }
    }

    // MARK: Writing and ending

    /// Masks `frame` with a fresh key from the system's strong generator (RFC 6455 §5.3) and
    /// writes it; a failed write ends the connection.
    private func write(_ frame: WebSocketFrame) async throws(WebSocketError) {
        var generator = SystemRandomNumberGenerator()
        let bytes = MaskedFrameWriter.bytes(for: frame, maskingKey: generator.next())
        do {
            try await raw.write(bytes)
        } catch {
            let failure = WebSocketError.transport(Self.readFailure(error))
            await finish(failure)
            throw state.withLock { $0.failure } ?? failure
        }
    }

    private func sendRefusal() -> WebSocketError? {
        state.withLock { state in
            state.rules.canSendMessages && !state.isFinished ? nil : refusal(in: state)
        }
    }

    private func refusal(in state: borrowing State) -> WebSocketError {
        if let failure = state.failure { return failure }
        if let close = state.rules.receivedClose {
            return .closedByServer(close.code ?? .noStatusReceived, reason: close.reason)
        }
        return .transport(
            TransportError(
                category: .cancelled,
                message: "the WebSocket is closing or closed",
                url: handshakeResponse.url
            )
        )
    }

    /// Fails the connection on a violation (RFC 6455 §7.1.7): the close code the RFC names is sent,
    /// then the connection is dropped without waiting for the server.
    private func fail(_ error: WebSocketError) async {
        let frame = state.withLock { $0.isFinished ? nil : $0.rules.fail(error) }
        if let frame {
            var generator = SystemRandomNumberGenerator()
            try? await raw.write(MaskedFrameWriter.bytes(for: frame, maskingKey: generator.next()))
        }
        await finish(error)
    }

    /// Ends the connection once: the messages finish (or throw `error`), waiters are answered, the
    /// raw connection is closed and the timers stop.
    private func finish(_ error: WebSocketError?) async {
        let ended = state.withLock {
            state -> (closes: [CheckedContinuation<Void, Never>], pings: [PendingPing], timers: [Task<Void, Never>])? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.rules.connectionEnded()
            state.failure = error
            state.closeStatus = state.rules.closeStatus
            defer {
                state.closeWaiters = []
                state.pings = [:]
                state.timers = []
            }
            return (state.closeWaiters, Array(state.pings.values), state.timers)
        }
        guard let ended else { return }
        producer.finish(throwing: error)
        await raw.close()
        let pingFailure = error ?? refusalAfterEnd()
        for ping in ended.pings { ping.waiter?.resume(returning: .failure(pingFailure)) }
        for waiter in ended.closes { waiter.resume() }
        for timer in ended.timers { timer.cancel() }
        wakeReader()
    }

    private func refusalAfterEnd() -> WebSocketError {
        state.withLock { refusal(in: $0) }
    }

    private static func readFailure(_ error: any Error) -> TransportError {
        HandshakeExchange.transportError(error, url: nil)
    }
}
