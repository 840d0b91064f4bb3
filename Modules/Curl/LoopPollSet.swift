internal import CCourierCurl

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The loop's poll set: its wake-up descriptor, then the sockets libcurl wants watched and for
/// what, as its socket callback (`CURLMOPT_SOCKETFUNCTION`) reports them; and the
/// `curl_multi_socket_action` mask for what a poll found.
///
/// Driving libcurl socket by socket, instead of `curl_multi_perform` over every transfer, spares
/// each pass a zero-timeout `poll(2)` per transfer that waits for the network (libcurl 7.88 checks
/// every such transfer's socket when it is not told which are ready: about 32 system calls a pass
/// at concurrency 32) and the walk of the transfers that have nothing to do. The set is kept up to
/// date as libcurl reports changes, so a pass polls it as it is: one `poll(2)` over exactly the
/// descriptors that matter, with no list built per pass. Loop thread only.
struct LoopPollSet {
    /// The wake-up descriptor at index 0, then libcurl's sockets in no particular order, then (only
    /// during a poll) the raw connections' sockets.
    private(set) var descriptors: [pollfd]
    /// Where each of libcurl's sockets is in ``descriptors``.
    private var positions: [Int32: Int] = [:]
    /// Raw connections' descriptors appended for the current poll.
    private var temporaryCount = 0

    init(wakeDescriptor: Int32) {
        descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
    }

    /// How many of libcurl's sockets are watched.
    var curlSocketCount: Int { positions.count }

    /// The events watched for `socket`, or `nil` when it is not watched.
    func events(of socket: Int32) -> Int16? {
        positions[socket].map { descriptors[$0].events }
    }

    /// Records what libcurl asked for `socket`: `CURL_POLL_IN`, `CURL_POLL_OUT`, `CURL_POLL_INOUT`,
    /// or `CURL_POLL_REMOVE` (and `CURL_POLL_NONE`, which asks for nothing yet) to stop watching it.
    mutating func update(socket: Int32, what: Int32) {
        precondition(temporaryCount == 0, "libcurl's sockets change only outside a poll")
        let events: Int16
        switch what {
        case CURL_POLL_IN: events = Int16(POLLIN)
        case CURL_POLL_OUT: events = Int16(POLLOUT)
        case CURL_POLL_INOUT: events = Int16(POLLIN | POLLOUT)
        default:
            // Swap the last socket into the removed one's place.
            guard let position = positions.removeValue(forKey: socket) else { return }
            let last = descriptors.removeLast()
            if position < descriptors.count {
                descriptors[position] = last
                positions[last.fd] = position
            }
            return
        }
        if let position = positions[socket] {
            descriptors[position].events = events
        } else {
            positions[socket] = descriptors.count
            descriptors.append(pollfd(fd: socket, events: events, revents: 0))
        }
    }

    /// Adds a raw connection's socket for the next poll only (see ``removeTemporaryDescriptors()``).
    mutating func appendTemporary(socket: Int32, events: Int16) {
        descriptors.append(pollfd(fd: socket, events: events, revents: 0))
        temporaryCount += 1
    }

    /// Drops what ``appendTemporary(socket:events:)`` added.
    mutating func removeTemporaryDescriptors() {
        descriptors.removeLast(temporaryCount)
        temporaryCount = 0
    }

    /// `poll(2)` over the set for at most `timeout` milliseconds (-1 for no limit): how many
    /// descriptors are ready, their revents in ``descriptors``. An interrupted poll returns early
    /// (-1), as a wake-up would, and the loop simply runs a pass.
    mutating func waitForReadiness(timeout: Int32) -> Int32 {
        descriptors.withUnsafeMutableBufferPointer { descriptors in
            pollDescriptors(descriptors, timeout: timeout)
        }
    }

    /// The `CURL_CSELECT_*` mask for a socket whose poll result is `revents`, or 0 when nothing
    /// happened on it. A hang-up or an error is handed to libcurl as readable (and as an error),
    /// so that its next read finds out what happened.
    static func actionMask(revents: Int16) -> Int32 {
        var mask: Int32 = 0
        if revents & Int16(POLLIN | POLLPRI | POLLHUP | POLLERR) != 0 { mask |= CURL_CSELECT_IN }
        if revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
        if revents & Int16(POLLERR | POLLNVAL) != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }
}

/// `poll(2)`, outside the type whose method would hide it.
private func pollDescriptors(_ descriptors: UnsafeMutableBufferPointer<pollfd>, timeout: Int32) -> Int32 {
    poll(descriptors.baseAddress, nfds_t(descriptors.count), timeout)
}
