internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierDiagnostics
internal import CourierHTTP
internal import CourierLocking
internal import CourierTransport
internal import FoundationEssentials
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A transfer handed to the loop: everything it needs to build the easy handle on its own thread.
///
/// A class, though immutable: it goes from the caller through the inbox, the command dispatch and
/// the admission queue to the transfer, and each hand-over of a struct this size retained every
/// reference in it (the request's URL, headers and body among them) and copied the rest.
final class PendingTransfer: Sendable {
    let id: Int
    let request: HTTPRequest
    let options: TransferOptions
    let events: TransferEventSource
    let requestBodyPipe: RequestBodyPipe?
    /// The admission key, built once: the loop uses it when the transfer is admitted and released.
    let origin: Substring

    init(
        id: Int,
        request: HTTPRequest,
        options: TransferOptions,
        events: TransferEventSource,
        requestBodyPipe: RequestBodyPipe?
    ) {
        self.id = id
        self.request = request
        self.options = options
        self.events = events
        self.requestBodyPipe = requestBodyPipe
        origin = OriginAdmission.origin(request.url)
    }
}

/// A cookie-jar operation run on the loop thread against the transport's shared jar.
enum CookieOperation: Sendable {
    case list
    case set(String)
    case removeAll
    case removeSessionCookies
    /// Removes the cookies with this name, domain and path (a cookie's identity, RFC 6265 §5.3).
    case remove(name: String, domain: String, path: String)
    case load(path: String)
    case save(path: String)
}

/// One thread that owns a libcurl multi handle and every easy handle of one transport.
///
/// The thread runs: drain the inbox (add, cancel, pause and unpause, suspend, resume, cookie
/// operations, shutdown) → `curl_multi_socket_action` for the sockets the last poll found ready and
/// for libcurl's expired timers (see `CurlLoop+SocketActions.swift`) → `curl_multi_info_read` →
/// `poll(2)` on its wake-up eventfd and libcurl's sockets, with the timeout taken from libcurl and
/// from the earliest scheduled request-body unpause. Other threads only append to the `Lock` inbox
/// and, when the loop polls, signal the eventfd under the same lock, so it is never signalled after
/// the loop closed it. Nothing on this thread sleeps or blocks except in that poll.
///
/// `@unchecked Sendable`: the C handles (`CURLM`, `CURLSH`, the configuration slists) and `active`
/// are created before the thread starts and are touched only on the loop thread afterwards (the
/// confinement rule); the members used from other threads are `inbox`, a `Lock`, through `post`,
/// and the wake-up eventfd it signals under that lock.
///
/// Exclusivity: the loop-confined properties every transfer touches skip the runtime's exclusivity
/// checks in release builds (`@exclusivity(unchecked)` under `#if !DEBUG`). With
/// ``CurlTransferState``'s, those checks were about 5 % of the loop's instructions for a small GET;
/// confinement already rules out a second thread, and debug builds, which run the tests, keep the
/// checks, so an overlapping access from a re-entered callback still traps there.
final class CurlLoop: @unchecked Sendable {
    /// The rare commands that carry continuations (whose layout only the runtime knows) are boxed:
    /// the enum then has a fixed layout, and the per-transfer ones (`add`, `responseDemand`, ...)
    /// are made, copied and destroyed without asking the runtime for its metadata each time.
    enum Command: Sendable {
        case add(PendingTransfer)
        case cancel(Int)
        case suspend(Int)
        case resume(Int)
        case responseDemand(Int)
        case requestBodyReady(Int)
        indirect case cookies(CookieOperation, CheckedContinuation<Result<[String], TransportError>, Never>)
        /// Opens a raw connection (see `CurlLoop+RawConnections`).
        indirect case openRaw(PendingRawConnection, CheckedContinuation<Result<Void, TransportError>, Never>)
        /// Hands bytes to a raw connection's socket; resumed once all of them are out.
        indirect case rawWrite(Int, [UInt8], CheckedContinuation<Result<Void, TransportError>, Never>)
        /// A raw connection's reader drained its buffer: read the socket again.
        case rawDemand(Int)
        /// Closes a raw connection; resumed once it is closed.
        indirect case rawClose(Int, CheckedContinuation<Void, Never>?)
        indirect case shutdown(CheckedContinuation<Void, Never>?)
        /// The transport was released without `shutdown()`: stop once the last transfer ends.
        case ownerReleased
    }

    private struct Inbox {
        var commands: [Command] = []
        /// Swift jobs of tasks that prefer this loop as their executor (see `CurlLoop+TaskExecutor`).
        var jobs: [UnownedJob] = []
        var closed = false
        /// The loop found the inbox empty and is in, or about to enter, its poll.
        var polling = false
    }

    let configuration: CurlTransport.Configuration
    /// Whether `configuration.diagnostics` has a handler: callbacks test this plain flag before
    /// touching the handler, so a transport without one does no diagnostics work at all.
    let hasDiagnostics: Bool
    private let inbox = Lock(Inbox())
    /// The loop thread's `pthread_self()`, 0 until the thread runs: tests check with it where a task
    /// that prefers the loop's executor actually ran.
    let threadID = Atomic<UInt>(0)
    let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer
    private let resolveList: UnsafeMutablePointer<curl_slist>?
    private let connectToList: UnsafeMutablePointer<curl_slist>?

    // Loop-thread state.
    /// Recent header field Strings, shared by the heads of this loop's transfers.
    let headerStrings = HeaderStringCache()
    /// Reused memory for large body chunks (see ``BodyChunkBuffers``).
    let bodyChunkBuffers = BodyChunkBuffers()
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var active: [Int: CurlTransferState] = [:]
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Open raw connections and those being opened, by id; their handles are in the multi handle.
    var rawConnections: [Int: RawConnectionState] = [:]
    /// Where raw connections receive into before their bytes go to their readers (allocated with
    /// the first one).
    var rawReadBuffer: UnsafeMutableRawBufferPointer?
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var timedUnpauses: [Int: ContinuousClock.Instant] = [:]
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Connections a transfer found broken while libcurl ran (an HTTP/2 GOAWAY with an
    /// error): the noticing transfer's id and socket, and the failure for every transfer on it.
    private var brokenConnections: [(id: Int, socket: Int32?, failure: TransportError)] = []
    private var cookieHandle: UnsafeMutableRawPointer?
    /// The easy handle every transfer's handle is copied from (`CurlTransferState.makeTemplate`),
    /// built with the first transfer; `nil` before that or when libcurl rejected an option.
    private var transferTemplate: UnsafeMutableRawPointer?
    private var transferTemplateBuilt = false
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Handles of finished transfers, for the next ones (see ``EasyHandlePool``).
    private var idleHandles = EasyHandlePool(capacity: CurlLoop.idleHandleCapacity)
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Transfers that ended in this iteration, whose handles go to the pool once their consumers
    /// have been resumed: the reset is not on the way to the consumer's wake-up.
    private var endedTransfers: [CurlTransferState] = []
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var admission: OriginAdmission
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var ownerReleased = false
    /// Set at teardown: handles of transfers ended then are cleaned up, not pooled.
    private var stoppingHandles = false
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Transfers whose body chunks of this iteration wait, gathered, to go out as one event.
    private var gatheringTransfers: [CurlTransferState] = []
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Consumer wake-ups yielded during this iteration, resumed together before the loop polls.
    private var deferredResumptions = TransferEventSource.Resumptions()
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Fast downloads whose consumers' wake-ups wait for more of the body (``ConsumerWakeHolds``).
    private var wakeHolds = WakeHolds()
    /// Holds taken out of ``wakeHolds`` to be released (kept to reuse its storage).
    private var endedWakeHolds: [WakeHolds.Hold] = []
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Whether to wait a moment for the next command before polling (see ``IdleSpin``).
    private var idleSpin = IdleSpin()
    /// The eventfd other threads signal to end the loop's poll (see ``post(_:)``).
    let wakeDescriptor: Int32
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// What the loop polls: the wake-up descriptor and libcurl's sockets (``LoopPollSet``).
    var pollSet: LoopPollSet
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    /// Sockets the last poll found ready, with their `curl_multi_socket_action` masks.
    var readyCurlSockets: [(socket: curl_socket_t, mask: Int32)] = []

    /// Creates the multi and share handles; `nil` when libcurl cannot allocate them.
    init?(configuration: CurlTransport.Configuration) {
        guard let multi = curl_multi_init() else { return nil }
        guard let share = curl_share_init() else {
            curl_multi_cleanup(multi)
            return nil
        }
        let wakeDescriptor = courier_wake_descriptor_create()
        guard wakeDescriptor >= 0 else {
            curl_share_cleanup(share)
            curl_multi_cleanup(multi)
            return nil
        }
        self.wakeDescriptor = wakeDescriptor
        pollSet = LoopPollSet(wakeDescriptor: wakeDescriptor)
        self.configuration = configuration
        hasDiagnostics = configuration.hasDiagnosticsHandler
        admission = OriginAdmission(
            limit: max(configuration.maxConcurrentStreams, configuration.maxConnectionsPerHost)
        )
        self.multi = multi
        self.share = share
        resolveList = Self.makeList(configuration.resolveOverrides.map(\.curlValue))
        connectToList = Self.makeList(configuration.connectOverrides.map(\.curlValue))
        // libcurl 7.88 accepts all of these; a rejection leaves its default in place, which the
        // transfers survive, so it is reported rather than fatal.
        let shared = courier_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        if shared != CURLSHE_OK {
            diagnose(.error, "libcurl rejected sharing cookies (CURLSHcode \(shared.rawValue))")
        }
        setMultiOption(CURLMOPT_PIPELINING, courier_curl_pipe_multiplex, "CURLMOPT_PIPELINING")
        setMultiOption(
            CURLMOPT_MAX_HOST_CONNECTIONS,
            configuration.maxConnectionsPerHost,
            "CURLMOPT_MAX_HOST_CONNECTIONS"
        )
        setMultiOption(
            CURLMOPT_MAX_TOTAL_CONNECTIONS,
            configuration.maxTotalConnections ?? 0,
            "CURLMOPT_MAX_TOTAL_CONNECTIONS"
        )
        setMultiOption(CURLMOPT_MAXCONNECTS, configuration.connectionCacheSize, "CURLMOPT_MAXCONNECTS")
        setMultiOption(
            CURLMOPT_MAX_CONCURRENT_STREAMS,
            configuration.maxConcurrentStreams,
            "CURLMOPT_MAX_CONCURRENT_STREAMS"
        )
        // Every libcurl since 7.15.4 takes a socket callback; without it the loop could not run.
        guard installSocketCallback() else {
            diagnose(.error, "libcurl rejected CURLMOPT_SOCKETFUNCTION")
            curl_multi_cleanup(multi)
            curl_share_cleanup(share)
            curl_slist_free_all(resolveList)
            curl_slist_free_all(connectToList)
            close(wakeDescriptor)
            return nil
        }
        // Once per transport: a libcurl whose messages were not verified would fail the checks quietly.
        LibcurlText.reportCompatibility(
            versionNumber: CurlRuntime.versionNumber,
            version: CurlRuntime.versionDescription,
            to: configuration.diagnostics
        )
    }

    private func setMultiOption(_ option: CURLMoption, _ value: Int, _ name: StaticString) {
        let code = courier_curl_multi_setopt_long(multi, option, value)
        guard code != CURLM_OK else { return }
        diagnose(
            .error,
            "libcurl rejected \(name) = \(value): \(String(cString: curl_multi_strerror(code)))",
            metadata: ["curl.multiCode": String(code.rawValue)]
        )
    }

    private static func makeList(_ values: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values { list = curl_slist_append(list, value) }
        return list
    }

    /// Starts the detached loop thread; it keeps the loop alive until it has cleaned up.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread,
            nil,
            { context in
                guard let context else { return nil }
                let loop = Unmanaged<CurlLoop>.fromOpaque(context).takeRetainedValue()
                loop.run()
                return nil
            },
            context
        )
        guard status == 0 else {
            Unmanaged<CurlLoop>.fromOpaque(context).release()
            return false
        }
        // Detached, so nobody joins: `shutdown` awaits the continuation the thread resumes as its last
        // act after `curl_multi_cleanup`; the thread then only returns, releasing its reference.
        pthread_detach(thread)
        return true
    }

    /// Queues a command for the loop and wakes it if it polls; `false` when the loop has stopped.
    /// Any thread.
    ///
    /// No wake-up is lost: `polling` is set under this lock, and only when the inbox is empty. A
    /// command appended before that is seen by the loop, which then does not poll; one appended after
    /// it finds `polling` set and wakes the loop. The wake-up makes an eventfd the poll watches
    /// readable until the loop reads it back, so a wake-up sent before the loop actually enters the
    /// poll still ends it at once. The first wake-up clears `polling`: the commands queued behind it are
    /// drained in the same pass, so they need no wake-up of their own, and a busy loop (which does
    /// not poll) costs posters no system call at all.
    @discardableResult
    func post(_ command: Command) -> Bool {
        append { $0.commands.append(command) }
    }

    /// Queues a Swift job for the loop thread and wakes the loop if it polls, like `post`; `false`
    /// when the loop has stopped, and the caller must run the job elsewhere. Any thread.
    func postJob(_ job: UnownedJob) -> Bool {
        append { $0.jobs.append(job) }
    }

    /// Adds to the open inbox under its lock and wakes a polling loop (see `post` for why no
    /// wake-up is lost).
    private func append(_ add: (inout Inbox) -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            add(&inbox)
            if inbox.polling {
                inbox.polling = false
                courier_wake_descriptor_signal(wakeDescriptor)
            }
            return true
        }
    }

    /// How many times one iteration takes the inbox again before driving libcurl: a job often
    /// enqueues the next (a child task's end resumes its parent, which starts the next request), and
    /// the chain is best finished before libcurl runs; the bound keeps tasks that keep
    /// waking each other from starving the transfers.
    private static let inboxRoundsPerIteration = 16

    /// The loop thread's name in thread listings (`/proc/self/task/*/comm`, `top -H`, gdb), so that
    /// its CPU and stacks can be told from the cooperative pool's; Linux keeps 15 bytes of a name.
    static let threadName = "courier-curl"

    typealias WakeHolds = ConsumerWakeHolds<CurlTransferState, TransferEventChannel.Resumption>

    // MARK: Loop thread

    private func run() {
        // Fails only for a name over 15 bytes, which the thread census integration test would notice.
        _ = pthread_setname_np(pthread_self(), Self.threadName)
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        // libcurl allocates `CURLOPT_BUFFERSIZE` + 1 bytes per transfer.
        let receiveBuffers = ReceiveBufferReserve(
            bufferSize: configuration.receiveBufferSize + 1,
            concurrentTransfers: configuration.maxConnectionsPerHost
        )
        var shutdownWaiters: [CheckedContinuation<Void, Never>?] = []
        var stopping = false
        // The inbox's arrays are swapped with these (emptied after each round) rather than copied
        // out: taking a copy and emptying the original allocated a new buffer on every take.
        var commands: [Command] = []
        var jobs: [UnownedJob] = []
        while !stopping {
            var round = 0
            while round < Self.inboxRoundsPerIteration && !stopping {
                round += 1
                inbox.withLock { inbox in
                    inbox.polling = false
                    swap(&inbox.commands, &commands)
                    swap(&inbox.jobs, &jobs)
                }
                if commands.isEmpty && jobs.isEmpty { break }
                for command in commands {
                    switch command {
                    case .shutdown(let waiter):
                        shutdownWaiters.append(waiter)
                        stopping = true
                    case .ownerReleased:
                        ownerReleased = true
                    default:
                        handle(command)
                    }
                }
                commands.removeAll(keepingCapacity: true)
                // Run even when stopping: they were accepted while the loop was open.
                runJobs(jobs)
                jobs.removeAll(keepingCapacity: true)
            }
            if stopping { break }
            driveLibcurl()
            reapFinishedTransfers()
            if !brokenConnections.isEmpty { failTransfersOnBrokenConnections() }
            if !rawConnections.isEmpty { serviceRawConnections() }
            unpauseDueRequestBodies()
            // Transfers outlive a dropped transport: the loop stops when the last one has ended.
            // One wake-up per parked consumer per iteration, with all its events of the iteration
            // already queued (a small GET is four events), and always before the loop blocks.
            if !gatheringTransfers.isEmpty { flushGatheredBodies() }
            if !wakeHolds.isEmpty { endDueWakeHolds() }
            let resumedConsumers = !deferredResumptions.isEmpty
            deferredResumptions.resumeAll()
            if !endedTransfers.isEmpty { recycleEndedTransfers() }
            if ownerReleased && active.isEmpty && rawConnections.isEmpty && !admission.hasWaiting { break }
            if resumedConsumers && active.isEmpty && rawConnections.isEmpty && idleSpin.shouldSpin() {
                idleSpin.record(commandArrived: inboxFills(within: IdleSpin.budget))
            }
            let inboxEmpty = inbox.withLock { inbox in
                inbox.polling = inbox.commands.isEmpty && inbox.jobs.isEmpty
                return inbox.polling
            }
            // Commands that arrived meanwhile (consumers just resumed post demand) are handled first.
            if inboxEmpty {
                pollSockets(timeout: pollTimeout())
            }
        }
        tearDown(shutdownWaiters)
        // Held until every handle is gone, then given back.
        _ = consume receiveBuffers
    }

    /// Whether a command or job arrives within `budget`, checking the inbox until then. `polling`
    /// stays false meanwhile, so a poster adds to the inbox without waking the loop.
    private func inboxFills(within budget: Duration) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: budget)
        repeat {
            if inbox.withLock({ !$0.commands.isEmpty || !$0.jobs.isEmpty }) { return true }
        } while ContinuousClock.now < deadline
        return false
    }

    /// A multi-handle call failed: the loop goes on (the next pass retries it, and libcurl fails the
    /// transfers it cannot drive), but nothing else would say so.
    func multiCallFailed(_ call: StaticString, _ code: CURLMcode) {
        diagnose(
            .error,
            "\(call) failed: \(String(cString: curl_multi_strerror(code)))",
            metadata: ["curl.multiCode": String(code.rawValue)]
        )
    }

    /// Hands `transfer`'s gathered body chunks on at the end of this iteration, with its consumer's
    /// wake-up (see ``GatheredBodyChunks``).
    func flushAtPassEnd(_ transfer: CurlTransferState) {
        gatheringTransfers.append(transfer)
    }

    private func flushGatheredBodies() {
        var now: ContinuousClock.Instant?
        for transfer in gatheringTransfers {
            transfer.flushesAtPassEnd = false
            if !wakeHolds.isEmpty && wakeHolds.isHolding(transfer.id) { continue }
            let startsHold = WakeHolds.startsHold(
                gatheredBytes: transfer.body.gatheredBytes,
                consumerParked: transfer.events.events.hasParkedConsumer
            )
            if startsHold {
                let instant = now ?? .now
                now = instant
                wakeHolds.start(transfer.id, subject: transfer, now: instant)
                continue
            }
            transfer.body.flushGathered()
        }
        gatheringTransfers.removeAll(keepingCapacity: true)
    }

    /// Ends the wake-up holds that are due (``ConsumerWakeHolds``): their gathered bytes go out and
    /// their consumers are resumed with this iteration's other wake-ups.
    private func endDueWakeHolds() {
        let now = ContinuousClock.now
        wakeHolds.endHolds(
            where: { hold in
                // A transfer's end yields its terminal event, which ends the hold; a consumer that
                // left needs nothing more held for it.
                let transfer = hold.subject
                if transfer.events.isConsumerDone { return true }
                return WakeHolds.isDue(
                    heldBytes: transfer.events.bufferedBodyBytes + transfer.body.gatheredBytes,
                    highWaterMark: transfer.events.events.highWaterMark,
                    deadline: hold.deadline,
                    now: now
                )
            },
            into: &endedWakeHolds
        )
        releaseEndedWakeHolds()
    }

    /// Hands the ended holds' gathered bytes on and queues their wake-ups for this iteration; out of
    /// the table first, so that the flushed body's wake-up joins this iteration's batch.
    private func releaseEndedWakeHolds() {
        for hold in endedWakeHolds {
            hold.subject.body.flushGathered()
            if let wakeUp = hold.wakeUp { deferredResumptions.append(wakeUp) }
        }
        endedWakeHolds.removeAll(keepingCapacity: true)
    }

    /// Yields `event` to `events` from the loop thread, keeping the consumer's wake-up for the end of
    /// the iteration, or in the transfer's wake-up hold while one lasts.
    func yieldDeferringResume(_ event: TransferEvent, to events: TransferEventSource, transferID: Int) {
        guard !wakeHolds.isEmpty else {
            events.yield(event, deferringResumeInto: &deferredResumptions)
            return
        }
        // A body chunk's wake-up stays in the transfer's hold, or joins the iteration's batch when
        // the transfer has none.
        if case .body = event {
            if let wakeUp = events.yieldHoldingResume(event), !wakeHolds.keep(wakeUp, for: transferID) {
                deferredResumptions.append(wakeUp)
            }
            return
        }
        // Any other event ends the hold: the consumer gets it, and the body before it, now.
        if let wakeUp = wakeHolds.end(transferID)?.wakeUp { deferredResumptions.append(wakeUp) }
        events.yield(event, deferringResumeInto: &deferredResumptions)
    }

    private func handle(_ command: Command) {
        switch command {
        case .add(let pending):
            if admission.admit(pending) { add(pending) }
        case .cancel(let id):
            if let waiting = admission.removeWaiting(id) {
                waiting.requestBodyPipe?.close()
                waiting.events.yield(
                    .failed(
                        TransportError(
                            category: .cancelled,
                            message: "the transfer was cancelled",
                            url: waiting.request.url
                        )
                    )
                )
                return
            }
            guard let transfer = active[id] else { return }
            finish(
                transfer,
                failure: TransportError(
                    category: .cancelled,
                    message: "the transfer was cancelled",
                    url: transfer.request.url
                )
            )
        case .suspend(let id):
            admission.setSuspended(id, true)
            active[id]?.setSuspended(true)
        case .resume(let id):
            admission.setSuspended(id, false)
            active[id]?.setSuspended(false)
        case .responseDemand(let id):
            active[id]?.responseDemandArrived()
        case .requestBodyReady(let id):
            timedUnpauses[id] = nil
            active[id]?.requestBodyReady()
        case .cookies(let operation, let continuation):
            continuation.resume(returning: runCookieOperation(operation))
        case .openRaw(let pending, let continuation):
            openRawConnection(pending, continuation)
        case .rawWrite(let id, let bytes, let continuation):
            writeRaw(id, bytes, continuation)
        case .rawDemand(let id):
            rawConnections[id]?.readingPaused = false
            rawConnections[id]?.needsService = true
        case .rawClose(let id, let continuation):
            closeRawConnection(id, failure: TransportError(category: .cancelled, message: "the connection was closed"))
            continuation?.resume()
        case .shutdown, .ownerReleased:
            break
        }
    }

    /// Builds the transfer for `pending` on a pooled handle when `pooled` (else on a copy of the
    /// transport's template, else on a fresh handle), with the transport's options.
    func makeTransfer(_ pending: PendingTransfer, pooled: Bool) -> Result<CurlTransferState, TransportError> {
        if !transferTemplateBuilt {
            transferTemplateBuilt = true
            transferTemplate = CurlTransferState.makeTemplate(
                configuration: configuration,
                resolveList: resolveList,
                connectToList: connectToList
            )
        }
        // Taken before the call: taking it among the arguments mutated the loop while they borrowed
        // its configuration, which the compiler avoided by copying the whole configuration.
        let handle =
            pooled
            ? idleHandles.take(
                sharedCookies: CurlTransferState.usesSharedCookies(pending.request, configuration.cookiePolicy)
            )
            : nil
        return CurlTransferState.make(
            pending,
            loop: self,
            configuration: configuration,
            pooled: handle,
            template: transferTemplate,
            share: share,
            resolveList: resolveList,
            connectToList: connectToList
        )
    }

    private func add(_ pending: PendingTransfer) {
        let setup = makeTransfer(pending, pooled: true)
        switch setup {
        case .failure(let error):
            pending.requestBodyPipe?.close()
            pending.events.yield(.failed(error))
            if let next = admission.release(origin: pending.origin) { add(next) }
        case .success(let transfer):
            transfer.startDate = Date()
            let code = curl_multi_add_handle(multi, transfer.easy)
            guard code == CURLM_OK else {
                transfer.finish(
                    failure: TransportError(
                        category: .other,
                        code: Int(code.rawValue),
                        message: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code)))",
                        url: pending.request.url
                    )
                )
                released(transfer)
                return
            }
            active[pending.id] = transfer
            if admission.startsSuspended(pending.id) { transfer.setSuspended(true) }
        }
    }

    /// A transfer left libcurl: its origin has room for the next waiting one.
    private func released(_ transfer: CurlTransferState) {
        if let next = admission.release(origin: transfer.origin) { add(next) }
    }

    private func reapFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var privateData: UnsafePointer<CChar>?
            _ = courier_curl_easy_getinfo_string(easy, CURLINFO_PRIVATE, &privateData)
            // Each lookup hashes its key: the empty tables are not asked, and the transfer is found and
            // removed in one.
            if let privateData, !rawConnections.isEmpty, let connection = rawConnections[Int(bitPattern: privateData)] {
                rawConnectionConnected(connection, code: code)
                continue
            }
            guard let privateData, let transfer = active.removeValue(forKey: Int(bitPattern: privateData)) else {
                // Cannot happen while every added handle is in `active`; if it does, the handle is
                // removed so that libcurl stops driving it, and the mismatch is reported.
                curl_multi_remove_handle(multi, easy)
                diagnose(.error, "libcurl finished a transfer the loop does not know (code \(code.rawValue))")
                continue
            }
            if !timedUnpauses.isEmpty { timedUnpauses[transfer.id] = nil }
            curl_multi_remove_handle(multi, easy)
            transfer.complete(code: code)
            recycle(transfer)
            released(transfer)
        }
    }

    /// Removes a running transfer and ends it with `failure`.
    private func finish(_ transfer: CurlTransferState, failure: TransportError) {
        active[transfer.id] = nil
        timedUnpauses[transfer.id] = nil
        curl_multi_remove_handle(multi, transfer.easy)
        transfer.finish(failure: failure)
        recycle(transfer)
        released(transfer)
    }

    /// Idle handles kept for reuse: as many as a busy transport finishes between two passes.
    static let idleHandleCapacity = 32

    /// Queues a finished transfer's handle for the pool, unless the loop is stopping.
    private func recycle(_ transfer: CurlTransferState) {
        guard !stoppingHandles else { return }
        endedTransfers.append(transfer)
    }

    private func recycleEndedTransfers() {
        for transfer in endedTransfers {
            transfer.recycleHandle(
                into: &idleHandles,
                configuration: configuration,
                resolveList: resolveList,
                connectToList: connectToList
            )
        }
        endedTransfers.removeAll(keepingCapacity: true)
    }

    /// Called by a transfer (inside libcurl's run of the pass) whose connection the server declared
    /// broken while leaving the socket open; the transfers on it are failed once libcurl returns.
    func connectionBroke(under transfer: CurlTransferState, failure: TransportError) {
        brokenConnections.append((transfer.id, transfer.activeSocket, failure))
    }

    /// Fails every running transfer on a connection found broken, the noticing one first.
    private func failTransfersOnBrokenConnections() {
        let broken = brokenConnections
        brokenConnections.removeAll()
        for entry in broken {
            if let transfer = active[entry.id] {
                finish(transfer, failure: transfer.pendingFailure ?? entry.failure)
            }
            guard let socket = entry.socket else { continue }
            for transfer in active.values where transfer.activeSocket == socket {
                finish(
                    transfer,
                    failure: TransportError(
                        category: entry.failure.category,
                        message: entry.failure.message,
                        url: transfer.request.url
                    )
                )
            }
        }
    }

    /// Called by a transfer whose request body reader asked to wait until `instant`.
    func scheduleRequestBodyUnpause(_ id: Int, at instant: ContinuousClock.Instant) {
        timedUnpauses[id] = instant
    }

    private func unpauseDueRequestBodies() {
        guard !timedUnpauses.isEmpty else { return }
        let now = ContinuousClock.now
        for (id, instant) in timedUnpauses where instant <= now {
            timedUnpauses[id] = nil
            active[id]?.requestBodyReady()
        }
    }

    private func pollTimeout() -> Int32 {
        var timeout: Int32 = 1000
        // Tested first: `min()` over an empty dictionary's values still cost a generic walk per pass.
        if !timedUnpauses.isEmpty, let earliest = timedUnpauses.values.min() {
            timeout = Self.pollTimeout(timeout, until: earliest)
        }
        if !wakeHolds.isEmpty, let deadline = wakeHolds.earliestDeadline {
            timeout = Self.pollTimeout(timeout, until: deadline)
        }
        return timeout
    }

    /// `timeout`, shortened to wake the poll at `instant` (rounded up to whole milliseconds).
    private static func pollTimeout(_ timeout: Int32, until instant: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: instant)
        let milliseconds =
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, min(Int64(timeout), milliseconds + 1)))
    }

    private func tearDown(_ waiters: [CheckedContinuation<Void, Never>?]) {
        var waiters = waiters
        let (leftovers, leftoverJobs) = inbox.withLock { inbox in
            inbox.closed = true
            defer {
                inbox.commands.removeAll()
                inbox.jobs.removeAll()
            }
            return (inbox.commands, inbox.jobs)
        }
        // From now on `postJob` refuses, and the executor sends jobs to the global one.
        for job in leftoverJobs { Self.runElsewhere(job) }
        for command in leftovers {
            switch command {
            case .add(let pending):
                pending.requestBodyPipe?.close()
                pending.events.yield(.failed(Self.shutDownError(pending.request.url)))
            case .cookies(_, let continuation):
                continuation.resume(returning: .failure(Self.shutDownError(nil)))
            case .openRaw(let pending, let continuation):
                continuation.resume(returning: .failure(Self.shutDownError(pending.request.url)))
            case .rawWrite(_, _, let continuation):
                continuation.resume(returning: .failure(Self.shutDownError(nil)))
            case .rawClose(_, let continuation):
                continuation?.resume()
            case .shutdown(let waiter):
                waiters.append(waiter)
            default:
                break
            }
        }
        for pending in admission.removeAllWaiting() {
            pending.requestBodyPipe?.close()
            pending.events.yield(.failed(Self.shutDownError(pending.request.url)))
        }
        stoppingHandles = true
        for transfer in active.values {
            finish(transfer, failure: Self.shutDownError(transfer.request.url))
        }
        // Failing them ended their holds; a hold of a transfer that ended earlier may remain.
        wakeHolds.endAll(into: &endedWakeHolds)
        releaseEndedWakeHolds()
        endedTransfers.removeAll()
        closeAllRawConnections()
        idleHandles.removeAll()
        if let cookieHandle { curl_easy_cleanup(cookieHandle) }
        cookieHandle = nil
        if let transferTemplate { curl_easy_cleanup(transferTemplate) }
        transferTemplate = nil
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
        curl_slist_free_all(resolveList)
        curl_slist_free_all(connectToList)
        // The inbox is closed: no poster signals it any more.
        close(wakeDescriptor)
        deferredResumptions.resumeAll()
        for waiter in waiters { waiter?.resume() }
    }

    static func shutDownError(_ url: URL?) -> TransportError {
        TransportError(category: .shutDown, message: "the transport was shut down", url: url)
    }

    // MARK: Cookies

    private func runCookieOperation(_ operation: CookieOperation) -> Result<[String], TransportError> {
        func failure(_ message: String, code: CURLcode? = nil) -> Result<[String], TransportError> {
            .failure(TransportError(category: .other, code: code.map { Int($0.rawValue) }, message: message))
        }
        switch operation {
        case .load(let path):
            guard access(path, R_OK) == 0 else { return failure("cannot read cookie file \(path)") }
            return withTemporaryCookieHandle { handle in
                _ = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIEFILE, path)
                let code = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "RELOAD")
                return code == CURLE_OK ? .success([]) : failure("loading cookies failed", code: code)
            }
        case .save(let path):
            let result = withTemporaryCookieHandle { handle -> Result<[String], TransportError> in
                _ = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIEJAR, path)
                let code = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "FLUSH")
                return code == CURLE_OK ? .success([]) : failure("saving cookies failed", code: code)
            }
            // libcurl reports no write failure for FLUSH; an unwritable path leaves no file.
            if case .success = result, access(path, F_OK) != 0 {
                return failure("cannot write cookie file \(path)")
            }
            return result
        case .list, .set, .removeAll, .removeSessionCookies, .remove:
            break
        }
        guard let handle = sharedCookieHandle() else { return failure("curl_easy_init failed") }
        switch operation {
        case .list:
            var list: UnsafeMutablePointer<curl_slist>?
            let code = courier_curl_easy_getinfo_slist(handle, CURLINFO_COOKIELIST, &list)
            guard code == CURLE_OK else { return failure("listing cookies failed", code: code) }
            defer { curl_slist_free_all(list) }
            var lines: [String] = []
            var node = list
            while let current = node {
                if let data = current.pointee.data { lines.append(String(cString: data)) }
                node = current.pointee.next
            }
            return .success(lines)
        case .set(let line):
            let code = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, line)
            return code == CURLE_OK ? .success([]) : failure("setting a cookie failed", code: code)
        case .removeAll:
            let code = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "ALL")
            return code == CURLE_OK ? .success([]) : failure("clearing cookies failed", code: code)
        case .removeSessionCookies:
            let code = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "SESS")
            return code == CURLE_OK ? .success([]) : failure("clearing session cookies failed", code: code)
        case .remove(let name, let domain, let path):
            return removeCookie(name: name, domain: domain, path: path, handle: handle)
        case .load, .save:
            return .success([])
        }
    }

    /// libcurl has no command that deletes one cookie, so the jar is emptied and refilled with the
    /// other lines; on the loop thread no transfer can see it in between.
    private func removeCookie(
        name: String,
        domain: String,
        path: String,
        handle: UnsafeMutableRawPointer
    ) -> Result<[String], TransportError> {
        var list: UnsafeMutablePointer<curl_slist>?
        let code = courier_curl_easy_getinfo_slist(handle, CURLINFO_COOKIELIST, &list)
        guard code == CURLE_OK else {
            return .failure(
                TransportError(category: .other, code: Int(code.rawValue), message: "listing cookies failed")
            )
        }
        defer { curl_slist_free_all(list) }
        var kept: [String] = []
        var removed = false
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                let line = String(cString: data)
                if let cookie = NetscapeCookieLine.parse(line),
                    cookie.name == name && cookie.domain == domain && cookie.path == path
                {
                    removed = true
                } else {
                    kept.append(line)
                }
            }
            node = current.pointee.next
        }
        guard removed else { return .success([]) }
        let cleared = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "ALL")
        guard cleared == CURLE_OK else {
            return .failure(
                TransportError(category: .other, code: Int(cleared.rawValue), message: "clearing cookies failed")
            )
        }
        for line in kept {
            let added = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, line)
            guard added == CURLE_OK else {
                return .failure(
                    TransportError(category: .other, code: Int(added.rawValue), message: "restoring a cookie failed")
                )
            }
        }
        return .success([])
    }

    /// An easy handle attached to the shared jar that is never added to the multi handle.
    private func sharedCookieHandle() -> UnsafeMutableRawPointer? {
        if let cookieHandle { return cookieHandle }
        guard let handle = curl_easy_init() else { return nil }
        _ = courier_curl_easy_setopt_share(handle, share)
        _ = courier_curl_easy_setopt_string(handle, CURLOPT_COOKIEFILE, "")
        cookieHandle = handle
        return handle
    }

    /// Runs `body` with a fresh handle on the shared jar: `COOKIEFILE` and `COOKIEJAR` accumulate per
    /// handle, so file operations get a handle of their own.
    private func withTemporaryCookieHandle(
        _ body: (UnsafeMutableRawPointer) -> Result<[String], TransportError>
    ) -> Result<[String], TransportError> {
        guard let handle = curl_easy_init() else {
            return .failure(TransportError(category: .other, message: "curl_easy_init failed"))
        }
        _ = courier_curl_easy_setopt_share(handle, share)
        let result = body(handle)
        curl_easy_cleanup(handle)
        return result
    }
}
