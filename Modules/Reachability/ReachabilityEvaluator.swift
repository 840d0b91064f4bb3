/// The pure mapping from a snapshot of kernel facts to AFNetworking's status and the path.
///
/// A destination address is reachable when all of these hold:
/// - the kernel has a route for it (`RTM_GETROUTE` answered a route, not `ENETUNREACH`), of type
///   unicast or local;
/// - the route's output interface is up (`IFF_UP`) and running (`IFF_RUNNING`), its operational state
///   is `up` or `unknown` (loopback and some tunnels never report `up`), and the route is not marked
///   `RTNH_F_LINKDOWN`. A route survives carrier loss, so the link state must be checked;
/// - there is a source address: the kernel picked one (`RTA_PREFSRC`), or the interface has a
///   non-tentative address of the destination's family.
///
/// The first reachable address in the lookups' order gives the path; its interface's kind gives the
/// status: cellular is AFNetworking's WWAN, any other kind its WiFi (AFNetworking's "WiFi" means
/// "not WWAN"). No lookup, or no reachable one, is ``ReachabilityStatus/notReachable``.
package enum ReachabilityEvaluator {
    package static func path(for facts: ReachabilityFacts) -> NetworkPath {
        var chosen: (route: RouteFacts, link: LinkFacts)?
        var supportsIPv4 = false
        var supportsIPv6 = false
        for lookup in facts.lookups {
            guard case .route(let route) = lookup, let link = usableLink(for: route, in: facts) else { continue }
            switch route.destination.family {
            case .ipv4: supportsIPv4 = true
            case .ipv6: supportsIPv6 = true
            }
            if chosen == nil { chosen = (route, link) }
        }
        guard let (route, link) = chosen else { return .unreachable }
        return NetworkPath(
            status: link.classification.kind == .cellular ? .reachableViaWWAN : .reachableViaWiFi,
            interface: NetworkInterface(index: link.index, name: link.name, kind: link.classification.kind),
            isVirtualPrivateNetwork: link.classification.isVirtualPrivateNetwork,
            supportsIPv4: supportsIPv4,
            supportsIPv6: supportsIPv6,
            gateway: route.gateway
        )
    }

    /// The route's output link, if the route can carry a packet now.
    private static func usableLink(for route: RouteFacts, in facts: ReachabilityFacts) -> LinkFacts? {
        switch route.type {
        case .unicast, .local: break
        case .unusable: return nil
        }
        guard let link = facts.links[route.outputInterface], link.isUp, link.isRunning, !route.isLinkDown else {
            return nil
        }
        guard link.operationalState == .up || link.operationalState == .unknown else { return nil }
        if route.type == .local || route.preferredSource != nil { return link }
        let hasSource = facts.addresses.contains { address in
            address.interfaceIndex == link.index && address.address.family == route.destination.family
                && !address.isTentative
        }
        return hasSource ? link : nil
    }
}
