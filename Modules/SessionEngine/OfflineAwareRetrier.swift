public import CourierHTTP
public import CourierReachability
public import CourierSessionCore
public import CourierTransport
internal import FoundationEssentials

/// Retries a request that failed because the network path to its host was down, once the path
/// is back: what a phone app on a train needs, and what no Linux HTTP client offers.
///
/// After a connection-level failure (cannot connect, connection lost, name resolution, timed
/// out), it asks a reachability monitor for the request's host. If the host is reachable, the
/// failure had another cause and this retrier declines (other retriers still decide). If not, it
/// waits for the path to come back, at most ``waitLimit``, then retries once; at the limit it ends
/// the task with `SessionError.Kind.retryFailed`. Only idempotent methods with replayable bodies,
/// unless ``retriesNonIdempotentRequests`` is set.
///
/// ```swift
/// let offline = OfflineAwareRetrier { host in NetlinkReachabilityMonitor(target: .host(host)) }
/// let session = SessionManager(transport: transport, interceptor: Interceptor(retriers: [offline, RetryPolicy()]))
/// ```
public struct OfflineAwareRetrier: RequestRetrier {
    /// Makes a monitor for a host; the retrier starts it, reads its paths and stops it again.
    public typealias MonitorFactory = @Sendable (_ host: String) -> any ReachabilityMonitoring

    private let monitor: MonitorFactory
    /// The longest to wait for the path to come back (and for the monitor's first evaluation).
    public var waitLimit: Duration = .seconds(30)
    /// Whether methods that are not idempotent (`POST`, `PATCH`) are retried too.
    public var retriesNonIdempotentRequests = false
    /// The transport failures that can mean the path is down.
    public var retryableCategories: Set<TransportError.Category> = TransportError.Category.transient
    /// The clock ``waitLimit`` is measured on; a test passes `ManualClock` from `CourierTesting`.
    public var clock: any SessionClock = .system

    /// Creates the retrier.
    ///
    /// - Parameter monitor: Makes a reachability monitor for a host name or address.
    public init(monitor: @escaping MonitorFactory) {
        self.monitor = monitor
    }

    /// Waits for the host's path after a connection-level failure, then retries once.
    ///
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - failure: The failure; only transport failures in ``retryableCategories`` count.
    ///   - attempt: Which attempt it was; only the first failure is retried.
    /// - Returns: `RetryDecision.retry` once the path is back, `RetryDecision.doNotRetry` when
    ///   the host was reachable anyway or the request may not be retried, and
    ///   `RetryDecision.doNotRetryWithError(_:)` when the path did not come back in time.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        guard case .transport(let error) = failure, let category = error.transportError?.category,
            retryableCategories.contains(category), attempt.retryCount == 0,
            request.method.isIdempotent || retriesNonIdempotentRequests, request.body.isReplayable,
            let host = request.url.host
        else { return .doNotRetry }
        let watcher = monitor(host)
        let paths = watcher.paths()
        watcher.startMonitoring()
        defer { watcher.stopMonitoring() }
        switch await Self.firstReachable(in: paths, within: waitLimit, on: clock) {
        case .reachableAtOnce:
            return .doNotRetry
        case .cameBack:
            return .retry
        case .stillDown:
            return .doNotRetryWithError(HostStillUnreachableError(host: host, waited: waitLimit))
        }
    }

    private enum Wait: Sendable {
        case reachableAtOnce
        case cameBack
        case stillDown
    }

    /// Reads paths until one is reachable or the limit passes.
    private static func firstReachable(
        in paths: AsyncStream<NetworkPath>,
        within limit: Duration,
        on clock: any SessionClock
    ) async -> Wait {
        await withTaskGroup(of: Wait.self) { group in
            group.addTask {
                var first = true
                for await path in paths where path.status != .unknown {
                    if path.status.isReachable { return first ? .reachableAtOnce : .cameBack }
                    first = false
                }
                return .stillDown
            }
            group.addTask {
                try? await clock.sleep(for: limit)
                return .stillDown
            }
            let outcome = await group.next() ?? .stillDown
            group.cancelAll()
            return outcome
        }
    }
}
