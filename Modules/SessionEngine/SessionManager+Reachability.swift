public import CourierReachability
internal import CourierSessionCore

extension SessionManager {
    /// Reports every path `monitor` delivers to the session's event monitors and event streams, as
    /// `SessionEvent.Kind.reachabilityChanged` with `SessionEvent.networkPath` (AFNetworking's
    /// session manager holds a reachability manager; here any monitor can be attached).
    ///
    /// The observation ends when the session is invalidated, or when the returned task is
    /// cancelled. The monitor is not started or stopped here: its owner does that.
    ///
    /// ```swift
    /// let monitor = NetlinkReachabilityMonitor.default
    /// monitor.startMonitoring()
    /// session.observeReachability(of: monitor)
    /// ```
    /// - Parameter monitor: The monitor to observe.
    /// - Returns: The observing task; cancel it to stop reporting before the session ends.
    @discardableResult
    public func observeReachability(of monitor: any ReachabilityMonitoring) -> Task<Void, Never> {
        let paths = monitor.paths()
        let observation = Task { [weak self] in
            for await path in paths {
                guard let self, !self.isInvalidated else { return }
                self.report(SessionEvent(.reachabilityChanged, networkPath: path))
            }
        }
        if !addObservation(observation) { observation.cancel() }
        return observation
    }
}
