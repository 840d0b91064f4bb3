internal import CCourierCurl

/// The sockets libcurl wants the loop to watch, and for what, as its socket callback
/// (`CURLMOPT_SOCKETFUNCTION`) reports them; and the `curl_multi_socket_action` mask for what a
/// poll found.
///
/// Driving libcurl socket by socket, instead of `curl_multi_perform` over every transfer, spares
/// each pass a zero-timeout `poll(2)` per transfer that waits for the network (libcurl 7.88 checks
/// every such transfer's socket when it is not told which are ready: about 32 system calls a pass
/// at concurrency 32) and the walk of the transfers that have nothing to do. Loop thread only.
struct CurlSocketInterests {
    /// Each watched socket's `curl_waitfd` events (`CURL_WAIT_POLLIN`, `CURL_WAIT_POLLOUT`).
    private(set) var events: [curl_socket_t: Int16] = [:]

    var isEmpty: Bool { events.isEmpty }

    /// Records what libcurl asked for `socket`: `CURL_POLL_IN`, `CURL_POLL_OUT`, `CURL_POLL_INOUT`,
    /// or `CURL_POLL_REMOVE` (and `CURL_POLL_NONE`, which asks for nothing yet) to stop watching it.
    mutating func update(socket: curl_socket_t, what: Int32) {
        switch what {
        case CURL_POLL_IN: events[socket] = Int16(CURL_WAIT_POLLIN)
        case CURL_POLL_OUT: events[socket] = Int16(CURL_WAIT_POLLOUT)
        case CURL_POLL_INOUT: events[socket] = Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLOUT)
        default: events[socket] = nil
        }
    }

    /// The `CURL_CSELECT_*` mask for a socket `curl_multi_poll` reported `revents` for, or 0 when
    /// nothing happened on it. (`curl_multi_poll` reports only `CURL_WAIT_POLLIN`, `POLLOUT` and
    /// `POLLPRI` for extra descriptors; a TCP error or hang-up also makes the socket readable or
    /// writable, which is how libcurl learns of it.)
    static func actionMask(revents: Int16) -> Int32 {
        var mask: Int32 = 0
        if revents & Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLPRI) != 0 { mask |= CURL_CSELECT_IN }
        if revents & Int16(CURL_WAIT_POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
        return mask
    }
}
