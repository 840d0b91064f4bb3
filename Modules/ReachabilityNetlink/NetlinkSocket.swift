internal import CCourierNetlink
internal import CourierReachability
internal import Glibc

/// The process's one `NETLINK_ROUTE` socket, subscribed to link, address and route events and also
/// used for requests. Confined to the monitor thread, which creates and closes it.
///
/// Replies to our requests arrive as unicast (`nl_groups == 0`) with our sequence number; events
/// arrive as multicast between them and are counted, not lost, while a request waits.
final class NetlinkSocket {
    /// A socket call failed: which call, and `strerror`'s text.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What one receive brought.
    struct Received {
        var messages: [NetlinkMessage] = []
        /// Multicast messages: link, address or route changes.
        var eventCount = 0
        var diagnostics: [ReachabilityDiagnostic] = []
        /// The kernel dropped events (`ENOBUFS`): anything may have changed.
        var overrun = false
    }

    let descriptor: Int32
    private var sequence: UInt32 = 0
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

    init() throws(Failure) {
        let descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
        guard descriptor >= 0 else { throw Failure(description: "socket(AF_NETLINK): \(Self.errnoText())") }
        var size: Int32 = 1 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = UInt32(
            RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE
        )
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
            }
        }
        guard bound == 0 else {
            let text = Self.errnoText()
            close(descriptor)
            throw Failure(description: "bind(NETLINK_ROUTE): \(text)")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Every message of a dump (`RTM_GETLINK`, `RTM_GETADDR`).
    func dump(type: UInt16, into received: inout Received) -> [NetlinkMessage]? {
        request(NetlinkRequest.dump(type: type, sequence: nextSequence()), dump: true, into: &received)
    }

    /// The kernel's route for `destination`.
    func lookUpRoute(to destination: IPAddress, into received: inout Received) -> RouteLookup? {
        guard
            let reply = request(
                NetlinkRequest.routeLookup(to: destination, sequence: nextSequence()),
                dump: false,
                into: &received
            )?.first
        else { return nil }
        switch reply.payload {
        case .route(let route):
            guard let interface = route.outputInterface else {
                return .unreachable(destination: destination, errno: ENETUNREACH)
            }
            return .route(
                RouteFacts(
                    destination: destination,
                    type: Self.routeType(route.type),
                    outputInterface: interface,
                    gateway: route.gateway,
                    preferredSource: route.preferredSource,
                    isLinkDown: route.flags & UInt32(RTNH_F_LINKDOWN) != 0
                )
            )
        case .error(let code):
            return .unreachable(destination: destination, errno: -code)
        default:
            received.diagnostics.append(
                ReachabilityDiagnostic(
                    kind: .malformedMessage,
                    message: "route lookup answered with type \(reply.type)"
                )
            )
            return nil
        }
    }

    private static func routeType(_ type: UInt8) -> RouteType {
        switch Int(type) {
        case Int(RTN_UNICAST): .unicast
        case Int(RTN_LOCAL): .local
        default: .unusable(type)
        }
    }

    private func nextSequence() -> UInt32 {
        sequence &+= 1
        return sequence
    }

    /// Sends `bytes` and collects the replies with its sequence number: until `NLMSG_DONE` for a dump,
    /// the first reply otherwise. `nil` when the kernel did not answer within a second or refused.
    private func request(_ bytes: [UInt8], dump: Bool, into received: inout Received) -> [NetlinkMessage]? {
        let sequence = self.sequence
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        let sent = bytes.withUnsafeBytes { payload in
            withUnsafePointer(to: &kernel) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor,
                        payload.baseAddress,
                        payload.count,
                        0,
                        $0,
                        socklen_t(MemoryLayout<sockaddr_nl>.size)
                    )
                }
            }
        }
        guard sent == bytes.count else {
            received.diagnostics.append(
                ReachabilityDiagnostic(kind: .socketError, message: "sendto: \(Self.errnoText())")
            )
            return nil
        }
        var replies: [NetlinkMessage] = []
        while true {
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptorSet, 1, 1000) == 1 else {
                received.diagnostics.append(
                    ReachabilityDiagnostic(kind: .socketError, message: "no answer to request \(sequence) within 1 s")
                )
                return nil
            }
            for message in receive(into: &received) ?? [] where message.sequence == sequence {
                switch message.payload {
                case .done:
                    return replies
                case .error(let code) where dump:
                    received.diagnostics.append(
                        ReachabilityDiagnostic(kind: .socketError, message: "dump refused: \(Self.errnoText(-code))")
                    )
                    return nil
                default:
                    replies.append(message)
                    if !dump { return replies }
                }
            }
        }
    }

    /// Reads one datagram without waiting. Multicast messages are counted as events (and kept in
    /// `received.messages`); the unicast ones are returned. `nil` when there was nothing to read.
    func receive(into received: inout Received) -> [NetlinkMessage]? {
        var source = sockaddr_nl()
        let (count, flags): (Int, Int32) = buffer.withUnsafeMutableBytes { storage in
            var vector = iovec(iov_base: storage.baseAddress, iov_len: storage.count)
            return withUnsafeMutablePointer(to: &source) { sourcePointer in
                withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_name = UnsafeMutableRawPointer(sourcePointer)
                    header.msg_namelen = socklen_t(MemoryLayout<sockaddr_nl>.size)
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    let count = recvmsg(descriptor, &header, Int32(MSG_DONTWAIT))
                    return (count, header.msg_flags)
                }
            }
        }
        guard count >= 0 else {
            let code = errno
            if code == ENOBUFS {
                received.overrun = true
                received.diagnostics.append(
                    ReachabilityDiagnostic(kind: .eventsDropped, message: "the kernel dropped events (ENOBUFS)")
                )
                return []
            }
            if code != EAGAIN && code != EINTR {
                received.diagnostics.append(
                    ReachabilityDiagnostic(kind: .socketError, message: "recvmsg: \(Self.errnoText(code))")
                )
            }
            return nil
        }
        if flags & Int32(MSG_TRUNC) != 0 {
            received.diagnostics.append(
                ReachabilityDiagnostic(
                    kind: .truncatedDatagram,
                    message: "a datagram larger than \(buffer.count) bytes was cut"
                )
            )
            received.overrun = true
            return []
        }
        guard source.nl_pid == 0 else {
            received.diagnostics.append(
                ReachabilityDiagnostic(
                    kind: .foreignSender,
                    message: "a message from port \(source.nl_pid) was ignored"
                )
            )
            return []
        }
        let parsed = buffer.withUnsafeBytes { NetlinkParser.parse(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        for problem in parsed.problems {
            received.diagnostics.append(ReachabilityDiagnostic(kind: .malformedMessage, message: problem))
        }
        if source.nl_groups != 0 {
            // A multicast datagram is a change even when it did not parse: evaluate again to be sure.
            received.eventCount += max(parsed.messages.count, 1)
            received.messages += parsed.messages
            return []
        }
        return parsed.messages
    }
}
