internal import CCourierNetlink
internal import CourierDiagnostics
internal import CourierLocking
internal import CourierReachability
internal import Glibc

/// The process's one netlink monitor: a dedicated thread with one `NETLINK_ROUTE` socket, shared by
/// every ``NetlinkReachabilityMonitor`` that is monitoring.
///
/// The thread starts with the first subscriber and ends when the last one leaves. It sleeps in
/// `poll` on the socket and an eventfd (never a timer: no polling), coalesces a burst of events
/// (one `ip link set up` makes about eight) for 30 ms after the last one and at most 150 ms after the
/// first, then reads the links and addresses once, looks up each subscriber's destinations and
/// hands each its path. A subscriber that joins, or that asks after resolving its host again, is
/// evaluated on its own at once. All netlink work, and the classifiers' sysfs reads, happen on this
/// thread, never on the cooperative pool.
final class NetlinkHub: Sendable {
    static let shared = NetlinkHub()

    private struct State {
        var subscribers: [Int: NetlinkSubscriber] = [:]
        /// Subscribers to evaluate now, without waiting for a change.
        var requested: Set<Int> = []
        var nextID = 0
        /// The running thread's eventfd; -1 when no thread runs.
        var wake: Int32 = -1
    }

    /// How long the network must stay quiet before an evaluation, and the most an evaluation waits.
    static let quietPeriod = Duration.milliseconds(30)
    static let longestDelay = Duration.milliseconds(150)
    /// How long to wait before asking again when the kernel did not answer a dump.
    static let retryDelay = Duration.seconds(1)
    /// The monitor thread's name in thread listings (`/proc/self/task/*/comm`, `top -H`, gdb);
    /// Linux keeps 15 bytes of a name.
    static let threadName = "courier-netlink"

    private let state = Lock(State())

    func subscribe(_ subscriber: NetlinkSubscriber) -> Int {
        let (id, failure) = state.withLock { state -> (Int, String?) in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = subscriber
            state.requested.insert(id)
            if state.wake >= 0 {
                Self.signal(state.wake)
                return (id, nil)
            }
            return (id, startThread(&state))
        }
        if let failure { report([ReachabilityDiagnostic(kind: .socketError, message: failure)], to: [subscriber]) }
        return id
    }

    func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.subscribers[id] = nil
            state.requested.remove(id)
            if state.wake >= 0 { Self.signal(state.wake) }
        }
    }

    /// Evaluates one subscriber again soon, as after a change (used when its host resolved anew).
    func requestEvaluation(_ id: Int) {
        state.withLock { state in
            guard state.subscribers[id] != nil else { return }
            state.requested.insert(id)
            if state.wake >= 0 { Self.signal(state.wake) }
        }
    }

    /// Whether the monitor thread runs (for tests of the teardown).
    var isRunning: Bool { state.withLock { $0.wake >= 0 } }

    private static func signal(_ descriptor: Int32) {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Starts the thread; the error text when it cannot.
    private func startThread(_ state: inout State) -> String? {
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else { return "eventfd: \(NetlinkSocket.errnoText())" }
        let context = Unmanaged.passRetained(ThreadStart(hub: self, wake: wake)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread,
            nil,
            { context in
                guard let context else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
                start.hub.run(wake: start.wake)
                return nil
            },
            context
        )
        guard status == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            close(wake)
            return "pthread_create: \(NetlinkSocket.errnoText(status))"
        }
        // Nobody joins: the thread closes its descriptors and returns when the last subscriber leaves.
        pthread_detach(thread)
        state.wake = wake
        return nil
    }

    private final class ThreadStart: Sendable {
        let hub: NetlinkHub
        let wake: Int32

        init(hub: NetlinkHub, wake: Int32) {
            self.hub = hub
            self.wake = wake
        }
    }

    // MARK: Monitor thread

    private func run(wake: Int32) {
        // Fails only for a name over 15 bytes, which the thread census integration test would notice.
        _ = pthread_setname_np(pthread_self(), Self.threadName)
        let socket: NetlinkSocket
        do {
            socket = try NetlinkSocket()
        } catch {
            let subscribers = state.withLock { state in
                state.wake = -1
                close(wake)
                return Array(state.subscribers.values)
            }
            report([ReachabilityDiagnostic(kind: .socketError, message: "\(error)")], to: subscribers)
            return
        }
        let clock = ContinuousClock()
        var firstEvent: ContinuousClock.Instant?
        var deadline: ContinuousClock.Instant?
        while true {
            let work = state.withLock { state -> (all: [Int: NetlinkSubscriber], requested: Set<Int>)? in
                guard !state.subscribers.isEmpty else {
                    // Under the lock: nobody signals a closed eventfd, and a new subscriber starts a new thread.
                    state.wake = -1
                    close(wake)
                    return nil
                }
                defer { state.requested = [] }
                return (state.subscribers, state.requested)
            }
            guard let work else { return }
            var received = NetlinkSocket.Received()
            let changed = deadline.map { clock.now >= $0 } ?? false
            if changed || !work.requested.isEmpty {
                let targets = changed ? work.all : work.all.filter { work.requested.contains($0.key) }
                if changed {
                    for subscriber in targets.values { subscriber.networkChanged() }
                    firstEvent = nil
                    deadline = nil
                }
                if !evaluate(Array(targets.values), socket: socket, received: &received) {
                    // The kernel did not answer a dump (the diagnostics say why): try everyone again later.
                    firstEvent = clock.now
                    deadline = clock.now + Self.retryDelay
                }
            }
            // Events that arrived while the requests waited for their answers count as changes.
            noteEvents(in: received, clock: clock, firstEvent: &firstEvent, deadline: &deadline)
            report(received.diagnostics, to: work.all.values)
            received = NetlinkSocket.Received()

            var descriptors = [
                pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = deadline.map { Self.milliseconds(until: $0, clock: clock) } ?? -1
            _ = poll(&descriptors, 2, timeout)
            if descriptors[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, MemoryLayout<UInt64>.size)
            }
            if descriptors[0].revents != 0 {
                while socket.receive(into: &received) != nil {}
            }
            noteEvents(in: received, clock: clock, firstEvent: &firstEvent, deadline: &deadline)
            report(received.diagnostics, to: work.all.values)
        }
    }

    private func noteEvents(
        in received: NetlinkSocket.Received,
        clock: ContinuousClock,
        firstEvent: inout ContinuousClock.Instant?,
        deadline: inout ContinuousClock.Instant?
    ) {
        guard received.eventCount > 0 || received.overrun else { return }
        let now = clock.now
        let first = firstEvent ?? now
        firstEvent = first
        deadline = min(now + Self.quietPeriod, first + Self.longestDelay)
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int32 {
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
    }

    /// Reads links and addresses once, then gives every target its path.
    /// `false` when the links or addresses could not be read, and nobody was evaluated.
    private func evaluate(
        _ targets: [NetlinkSubscriber],
        socket: NetlinkSocket,
        received: inout NetlinkSocket.Received
    ) -> Bool {
        guard let linkMessages = socket.dump(type: UInt16(RTM_GETLINK), into: &received),
            let addressMessages = socket.dump(type: UInt16(RTM_GETADDR), into: &received)
        else { return false }
        var links: [Int32: LinkMessage] = [:]
        for case .link(let link) in linkMessages.map(\.payload) where !link.isDeletion { links[link.index] = link }
        let addresses = addressMessages.compactMap { message -> AddressFacts? in
            guard case .address(let address) = message.payload, let ip = address.address else { return nil }
            let unusable = UInt32(IFA_F_TENTATIVE | IFA_F_DADFAILED)
            return AddressFacts(interfaceIndex: address.index, address: ip, isTentative: address.flags & unusable != 0)
        }
        var lookups: [IPAddress: RouteLookup] = [:]
        for subscriber in targets {
            guard let destinations = subscriber.destinations() else { continue }
            var facts = ReachabilityFacts(links: [:], addresses: addresses, lookups: [])
            for destination in destinations {
                if lookups[destination] == nil {
                    lookups[destination] = socket.lookUpRoute(to: destination, into: &received)
                }
                if let lookup = lookups[destination] { facts.lookups.append(lookup) }
            }
            for link in links.values { facts.links[link.index] = LinkFacts(link, classifier: subscriber.classifier) }
            subscriber.evaluated(ReachabilityEvaluator.path(for: facts))
        }
        return true
    }

    /// The one place where the monitor reports what it skipped or could not do: to each subscriber's
    /// diagnostics (`NetlinkReachabilityMonitor.Configuration.diagnostics`).
    private func report(
        _ diagnostics: [ReachabilityDiagnostic],
        to subscribers: some Sequence<NetlinkSubscriber>
    ) {
        guard !diagnostics.isEmpty else { return }
        for subscriber in subscribers {
            for diagnostic in diagnostics {
                subscriber.diagnostics.log(
                    diagnostic.level,
                    diagnostic.message,
                    metadata: ["kind": "\(diagnostic.kind)"],
                    source: "reachability"
                )
            }
        }
    }
}

extension LinkFacts {
    /// `IFF_UP` and `IFF_RUNNING` (from linux/if.h, which cannot be imported beside glibc's net/if.h).
    private static let up: UInt32 = 0x1
    private static let running: UInt32 = 0x40

    init(_ link: LinkMessage, classifier: any InterfaceClassifying) {
        let name = link.name ?? "if\(link.index)"
        self.init(
            index: link.index,
            name: name,
            isUp: link.flags & Self.up != 0,
            isRunning: link.flags & Self.running != 0,
            operationalState: OperationalState(rawValue: link.operationalState ?? 0) ?? .unknown,
            classification: classifier.classify(
                InterfaceDescriptor(
                    index: link.index,
                    name: name,
                    hardwareType: link.hardwareType,
                    linkKind: link.linkKind
                )
            )
        )
    }
}
