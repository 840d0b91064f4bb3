internal import CourierLocking
public import CourierReachability
public import Dispatch

/// A reachability monitor that a test drives by hand: it delivers exactly the paths the test sends,
/// through the same ordered delivery as `NetlinkReachabilityMonitor`, and never touches the system.
///
/// Hand it to code that takes `any ReachabilityMonitoring`, then move the network yourself:
///
/// ```swift
/// let monitor = ManualReachabilityMonitor()
/// let uploader = Uploader(reachability: monitor)   // code under test
/// monitor.send(.notReachable)
/// monitor.send(NetworkPath(status: .reachableViaWWAN, interface: NetworkInterface(index: 3, name: "wwan0", kind: .cellular)))
/// await monitor.waitForDeliveries()
/// #expect(monitor.startCount == 1)
/// ```
///
/// Like the real monitor it delivers only while monitoring: `send(_:)` before
/// `startMonitoring()` or after `stopMonitoring()` is recorded in ``sentWhileStopped`` and not
/// delivered, unless ``deliversWhileStopped`` is set. `startMonitoring()` delivers the `initialPath`
/// when one is set, as the real monitor delivers its first evaluation.
public final class ManualReachabilityMonitor: ReachabilityMonitoring {
    private struct State {
        var isMonitoring = false
        var startCount = 0
        var stopCount = 0
        var initialPath: NetworkPath?
        var deliversWhileStopped = false
        var sentWhileStopped: [NetworkPath] = []
    }

    private let state = Lock(State())
    private let broadcast: ReachabilityBroadcast

    /// Creates a monitor that delivers on `queue`.
    ///
    /// - Parameters:
    ///   - initialPath: What `startMonitoring()` delivers first; `nil` delivers nothing until `send(_:)`.
    ///   - queue: Where deliveries run; a private serial queue by default.
    public init(
        initialPath: NetworkPath? = nil,
        queue: DispatchQueue = DispatchQueue(label: "courier.manual-reachability")
    ) {
        broadcast = ReachabilityBroadcast(queue: queue)
        state.withLock { $0.initialPath = initialPath }
    }

    /// The last delivered status; `.unknown` before the first delivery.
    public var status: ReachabilityStatus { broadcast.status }

    /// The last delivered path.
    public var path: NetworkPath { broadcast.path }

    /// Whether the monitor is between `startMonitoring()` and `stopMonitoring()`.
    public var isMonitoring: Bool { state.withLock { $0.isMonitoring } }

    /// How many times `startMonitoring()` was called.
    public var startCount: Int { state.withLock { $0.startCount } }

    /// How many times `stopMonitoring()` was called.
    public var stopCount: Int { state.withLock { $0.stopCount } }

    /// Paths sent while not monitoring, which were not delivered.
    public var sentWhileStopped: [NetworkPath] { state.withLock { $0.sentWhileStopped } }

    /// Whether `send(_:)` delivers even while not monitoring; `false` by default.
    public var deliversWhileStopped: Bool {
        get { state.withLock { $0.deliversWhileStopped } }
        set { state.withLock { $0.deliversWhileStopped = newValue } }
    }

    /// Starts monitoring and delivers the initial path, if one was given.
    public func startMonitoring() {
        let initial = state.withLock { state in
            state.isMonitoring = true
            state.startCount += 1
            return state.initialPath
        }
        if let initial { broadcast.deliver(initial) }
    }

    /// Stops monitoring; the status keeps its last value.
    public func stopMonitoring() {
        state.withLock { state in
            state.isMonitoring = false
            state.stopCount += 1
        }
    }

    /// Sets the closure called with the status at every delivery; `nil` removes it.
    ///
    /// - Parameter handler: Runs on the delivery queue, after `status` has changed.
    public func setReachabilityStatusChangeHandler(_ handler: (@Sendable (ReachabilityStatus) -> Void)?) {
        broadcast.setHandler(handler)
    }

    /// A sequence of every path delivered from now on, starting with the current one if there was a
    /// delivery.
    ///
    /// - Returns: The paths, in delivery order.
    public func paths() -> AsyncStream<NetworkPath> {
        broadcast.paths()
    }

    /// Delivers `path` as if the network had changed.
    ///
    /// - Parameter path: The new path.
    public func send(_ path: NetworkPath) {
        let deliver = state.withLock { state in
            guard state.isMonitoring || state.deliversWhileStopped else {
                state.sentWhileStopped.append(path)
                return false
            }
            return true
        }
        if deliver { broadcast.deliver(path) }
    }

    /// Delivers a path with only `status` set (no interface), as if the network had changed.
    ///
    /// - Parameter status: The new status.
    public func send(_ status: ReachabilityStatus) {
        send(NetworkPath(status: status))
    }

    /// Returns once every delivery sent so far has run (status, handler and sequences).
    public func waitForDeliveries() async {
        await broadcast.waitForDeliveries()
    }
}
