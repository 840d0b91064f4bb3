internal import CourierReachability
internal import CourierReachabilityNetlink
internal import FoundationEssentials

/// The monitor `--wait-for-network` hands the offline-aware retrier: it forwards a netlink
/// monitor and says on stderr, once, when the host turns out to be unreachable, so that a user (or
/// a script) knows why the command waits. The line is written before that path reaches the retrier.
final class AnnouncingReachabilityMonitor: ReachabilityMonitoring {
    private let base: NetlinkReachabilityMonitor
    private let host: String

    init(host: String) {
        self.host = host
        base = NetlinkReachabilityMonitor(target: IPAddress(host).map { .address($0) } ?? .host(host))
    }

    var status: ReachabilityStatus { base.status }
    var path: NetworkPath { base.path }
    func startMonitoring() { base.startMonitoring() }
    func stopMonitoring() { base.stopMonitoring() }

    func setReachabilityStatusChangeHandler(_ handler: (@Sendable (ReachabilityStatus) -> Void)?) {
        base.setReachabilityStatusChangeHandler(handler)
    }

    func paths() -> AsyncStream<NetworkPath> {
        let inner = base.paths()
        let host = host
        return AsyncStream { continuation in
            let forwarding = Task {
                var announced = false
                for await path in inner {
                    if !announced && path.status == .notReachable {
                        announced = true
                        StandardStreams.printError("courier: \(host) is not reachable: waiting for the network")
                    }
                    continuation.yield(path)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }
}
