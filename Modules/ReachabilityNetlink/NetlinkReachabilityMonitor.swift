public import CourierDiagnostics
internal import CourierLocking
public import CourierReachability
public import Dispatch

/// AFNetworking's `AFNetworkReachabilityManager` on Linux: watches the default route, a host name or
/// an address through the kernel's rtnetlink events and route lookups.
///
/// Every monitor that is monitoring shares the process's one netlink socket and thread; the thread
/// starts with the first ``startMonitoring()`` and ends after the last ``stopMonitoring()``. On each
/// change of links, addresses or routes (coalesced over a few milliseconds), the destination's
/// addresses are looked up with `RTM_GETROUTE` (the kernel answers from its tables: no packet is sent,
/// nothing is connected to) and the path is evaluated as `ReachabilityStatus` documents. A path
/// that differs from the last one is delivered on the configured queue: ``status`` and ``path``
/// change, the status-change handler runs, then every ``paths()`` sequence receives it.
///
/// How Linux maps to AFNetworking:
/// - a usable route through a cellular interface (see ``SysfsInterfaceClassifier``) is
///   `ReachabilityStatus.reachableViaWWAN`; through any other interface (wired, Wi-Fi, virtual,
///   loopback) `ReachabilityStatus.reachableViaWiFi`, as AFNetworking's "WiFi" means "not WWAN";
/// - no route (`ENETUNREACH`), an unreachable or blackhole route, an interface that is down or has
///   lost its carrier, no source address, or a host name that does not resolve:
///   `ReachabilityStatus.notReachable`;
/// - before the first evaluation: `ReachabilityStatus.unknown`.
///
/// Like SystemConfiguration's reachability, this answers "is there a usable route", not "does the
/// server answer".
///
/// ```swift
/// let monitor = NetlinkReachabilityMonitor(target: .host("api.example.com"))
/// monitor.setReachabilityStatusChangeHandler { status in
///     print("api.example.com: \(status)")  // "api.example.com: Reachable via WiFi"
/// }
/// monitor.startMonitoring()
/// for await path in monitor.paths() {
///     print(path)  // "Reachable via WiFi via wlan0 (wifi) IPv4+IPv6 gateway 192.168.1.1"
/// }
/// ```
public final class NetlinkReachabilityMonitor: ReachabilityMonitoring {
    /// How a monitor delivers, resolves, classifies and reports.
    public struct Configuration: Sendable {
        /// Where deliveries run, in order; a private serial queue by default.
        public var queue: DispatchQueue
        /// Resolves a `ReachabilityTarget.host(_:)` target; ``SystemHostResolver`` by default.
        public var resolver: any HostResolving
        /// Decides each interface's kind; ``SysfsInterfaceClassifier`` by default.
        public var classifier: any InterfaceClassifying
        /// Receives what the monitor skipped (malformed or truncated netlink messages, dropped events,
        /// socket errors) through the project's diagnostics seam, with the ``ReachabilityDiagnostic``
        /// kind as the `kind` metadata; off by default.
        public var diagnostics: Diagnostics

        /// Creates the default configuration.
        public init() {
            queue = DispatchQueue(label: "courier.reachability.monitor")
            resolver = SystemHostResolver()
            classifier = SysfsInterfaceClassifier()
            diagnostics = .disabled
        }
    }

    /// The addresses the default-route monitor looks up: the documentation prefixes of RFC 5737 and
    /// RFC 3849. Only the kernel's tables are consulted, so no real host is named; any address
    /// without a more specific route follows the default route.
    static let defaultRouteProbes = [
        IPAddress(bytes: [192, 0, 2, 1]),
        IPAddress(bytes: [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]),
    ]
    .compactMap { $0 }

    private struct State {
        var subscription: Int?
        /// Bumped by every start and stop: late results of an earlier watch are dropped.
        var generation = 0
        var destinations: [IPAddress]?
        var lastEvaluated: NetworkPath?
        var resolution = 0
        var resolving: Task<Void, Never>?
    }

    /// What this monitor watches.
    public let target: ReachabilityTarget
    private let configuration: Configuration
    private let broadcast: ReachabilityBroadcast
    private let hub: NetlinkHub
    private let state = Lock(State())

    /// Creates a monitor for `target`; it watches nothing until ``startMonitoring()``.
    ///
    /// ```swift
    /// let monitor = NetlinkReachabilityMonitor(target: .defaultRoute)
    /// monitor.startMonitoring()
    /// ```
    ///
    /// - Parameters:
    ///   - target: The default route, a host name or an address.
    ///   - configuration: The delivery queue, resolver, classifier and diagnostics.
    public convenience init(target: ReachabilityTarget, configuration: Configuration = Configuration()) {
        self.init(target: target, configuration: configuration, hub: .shared)
    }

    /// A monitor on a hub of its own, so that a test can watch that hub's thread come and go.
    init(target: ReachabilityTarget, configuration: Configuration, hub: NetlinkHub) {
        self.target = target
        self.configuration = configuration
        self.broadcast = ReachabilityBroadcast(queue: configuration.queue)
        self.hub = hub
    }

    deinit {
        if let subscription = state.withLock({ $0.subscription }) { hub.unsubscribe(subscription) }
    }

    /// The last delivered status; `ReachabilityStatus.unknown` until the first evaluation.
    public var status: ReachabilityStatus { broadcast.status }

    /// The last delivered path; `NetworkPath.unknown` until the first evaluation.
    public var path: NetworkPath { broadcast.path }

    /// Starts watching, after stopping any earlier watch; the first evaluation is delivered within
    /// milliseconds (for a host, once its name has been resolved).
    public func startMonitoring() {
        stopMonitoring()
        let generation = state.withLock { state in
            state.generation += 1
            state.lastEvaluated = nil
            switch target {
            case .defaultRoute: state.destinations = Self.defaultRouteProbes
            case .address(let address): state.destinations = [address]
            case .host: state.destinations = nil
            }
            let generation = state.generation
            state.subscription = hub.subscribe(
                NetlinkSubscriber(
                    destinations: { [weak self] in
                        self?.state.withLock { $0.generation == generation ? $0.destinations : nil }
                    },
                    classifier: configuration.classifier,
                    networkChanged: { [weak self] in self?.resolve(generation: generation) },
                    evaluated: { [weak self] path in self?.accept(path, generation: generation) },
                    diagnostics: configuration.diagnostics
                )
            )
            return generation
        }
        resolve(generation: generation)
    }

    /// Stops watching; ``status`` and ``path`` keep their last values.
    public func stopMonitoring() {
        let (subscription, resolving) = state.withLock { state in
            state.generation += 1
            defer {
                state.subscription = nil
                state.resolving = nil
            }
            return (state.subscription, state.resolving)
        }
        resolving?.cancel()
        if let subscription { hub.unsubscribe(subscription) }
    }

    /// Sets the closure called with the status at every delivery (AFNetworking's
    /// `setReachabilityStatusChangeBlock:`); `nil` removes it.
    ///
    /// - Parameter handler: Runs on the configuration's queue, after ``status`` has changed.
    public func setReachabilityStatusChangeHandler(_ handler: (@Sendable (ReachabilityStatus) -> Void)?) {
        broadcast.setHandler(handler)
    }

    /// A sequence of every path delivered from now on, starting with the current one if there was a
    /// delivery; it ends when the monitor is released.
    ///
    /// - Returns: The paths, in delivery order.
    public func paths() -> AsyncStream<NetworkPath> {
        broadcast.paths()
    }

    /// Takes an evaluation from the hub thread (or a failed resolution) and delivers it if it is new.
    private func accept(_ path: NetworkPath, generation: Int) {
        state.withLock { state in
            guard state.generation == generation, state.lastEvaluated != path else { return }
            state.lastEvaluated = path
            // Under the lock, so deliveries are queued in the order they were decided.
            broadcast.deliver(path)
        }
    }

    /// Resolves a host target again (a no-op for the others); the hub then evaluates the new addresses.
    private func resolve(generation: Int) {
        guard case .host(let name) = target else { return }
        let resolver = configuration.resolver
        state.withLock { state in
            guard state.generation == generation else { return }
            state.resolution += 1
            let resolution = state.resolution
            state.resolving?.cancel()
            state.resolving = Task { [weak self] in
                let addresses = (try? await resolver.resolve(name)) ?? []
                self?.resolved(addresses, resolution: resolution, generation: generation)
            }
        }
    }

    private func resolved(_ addresses: [IPAddress], resolution: Int, generation: Int) {
        let subscription = state.withLock { state -> Int? in
            guard state.generation == generation, state.resolution == resolution else { return nil }
            state.destinations = addresses
            return state.subscription
        }
        if let subscription { hub.requestEvaluation(subscription) }
    }
}
