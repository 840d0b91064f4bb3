/// A source of reachability for one destination: the seam the session layer and apps depend on.
///
/// `NetlinkReachabilityMonitor` implements it on Linux; `ManualReachabilityMonitor` in
/// `CourierTesting` is a double that a test drives by hand.
///
/// ```swift
/// func waitUntilReachable(_ monitor: any ReachabilityMonitoring) async {
///     monitor.startMonitoring()
///     for await path in monitor.paths() where path.status.isReachable { return }
/// }
/// ```
///
/// - Important: Conformers deliver in order on one queue: first ``status`` and ``path`` take the
///   new value, then the status-change handler runs, then every ``paths()`` sequence receives it.
///   ``stopMonitoring()`` keeps the last status. Before the first delivery the status is
///   ``ReachabilityStatus/unknown``.
public protocol ReachabilityMonitoring: AnyObject, Sendable {
    /// The last delivered status; ``ReachabilityStatus/unknown`` before the first delivery.
    var status: ReachabilityStatus { get }

    /// The last delivered path; ``NetworkPath/unknown`` before the first delivery.
    var path: NetworkPath { get }

    /// Starts watching (stopping any earlier watch first) and delivers a first evaluation soon after.
    func startMonitoring()

    /// Stops watching; ``status`` and ``path`` keep their last values.
    func stopMonitoring()

    /// Sets the closure called with the status at every delivery (AFNetworking's
    /// `setReachabilityStatusChangeBlock:`); `nil` removes it.
    ///
    /// - Parameter handler: Called on the delivery queue, after ``status`` has been updated.
    func setReachabilityStatusChangeHandler(_ handler: (@Sendable (ReachabilityStatus) -> Void)?)

    /// A sequence of every path delivered from now on, starting with the current one if a delivery
    /// has already happened.
    ///
    /// - Returns: A sequence that ends when the monitor is released.
    func paths() -> AsyncStream<NetworkPath>
}

extension ReachabilityMonitoring {
    /// Whether the last delivered status is reachable (via WWAN or via WiFi).
    public var isReachable: Bool { status.isReachable }

    /// Whether the last delivered status is ``ReachabilityStatus/reachableViaWWAN``.
    public var isReachableViaWWAN: Bool { status == .reachableViaWWAN }

    /// Whether the last delivered status is ``ReachabilityStatus/reachableViaWiFi``.
    public var isReachableViaWiFi: Bool { status == .reachableViaWiFi }
}
