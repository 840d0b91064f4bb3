internal import CourierLocking
public import Dispatch

/// The delivery side of a ``ReachabilityMonitoring`` conformer: status, path, handler and sequences,
/// updated in order on one queue.
///
/// `NetlinkReachabilityMonitor` and `CourierTesting`'s `ManualReachabilityMonitor` both deliver
/// through it, so a double behaves as the real monitor does. Each ``deliver(_:)`` runs on the queue in
/// the order of the calls: ``status`` and ``path`` change, then the handler runs, then every sequence
/// from ``paths()`` receives the path.
///
/// ```swift
/// let broadcast = ReachabilityBroadcast(queue: .main)
/// broadcast.deliver(NetworkPath(status: .reachableViaWiFi))
/// ```
public final class ReachabilityBroadcast: Sendable {
    private struct State {
        var path = NetworkPath.unknown
        var handler: (@Sendable (ReachabilityStatus) -> Void)?
        var streams: [Int: AsyncStream<NetworkPath>.Continuation] = [:]
        var nextStream = 0
        /// The path the sequences last received; a new sequence starts with it.
        var streamedPath: NetworkPath?
    }

    private let state = Lock(State())
    /// Serial, and targeting the caller's queue: deliveries keep their order even on a concurrent one.
    private let serial: DispatchQueue

    /// Creates a broadcast that delivers on `queue`.
    ///
    /// - Parameter queue: Where deliveries run; a concurrent queue is fine, deliveries stay in order.
    public init(queue: DispatchQueue) {
        serial = DispatchQueue(label: "courier.reachability.delivery", target: queue)
    }

    deinit {
        for continuation in state.withLock({ $0.streams.values }) { continuation.finish() }
    }

    /// The last delivered status.
    public var status: ReachabilityStatus { state.withLock { $0.path.status } }

    /// The last delivered path.
    public var path: NetworkPath { state.withLock { $0.path } }

    /// Sets the closure called with the status at every delivery; `nil` removes it.
    ///
    /// - Parameter handler: Runs on the delivery queue.
    public func setHandler(_ handler: (@Sendable (ReachabilityStatus) -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// A sequence of every later path, starting with the last delivered one if there was one.
    ///
    /// - Returns: A sequence that ends when the broadcast is released.
    public func paths() -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let id = state.withLock { state in
            let id = state.nextStream
            state.nextStream += 1
            state.streams[id] = continuation
            if let current = state.streamedPath { continuation.yield(current) }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Returns once every delivery queued before the call has run, handler and sequences included.
    public func waitForDeliveries() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            serial.async { continuation.resume() }
        }
    }

    /// Queues one delivery of `path`; deliveries run on the queue in the order of these calls.
    ///
    /// - Parameter path: The new path.
    public func deliver(_ path: NetworkPath) {
        serial.async { [self] in
            let handler = state.withLock { state in
                state.path = path
                return state.handler
            }
            handler?(path.status)
            state.withLock { state in
                state.streamedPath = path
                for continuation in state.streams.values { continuation.yield(path) }
            }
        }
    }
}
