internal import CCourierCurl
internal import CCourierCurlShim

/// Driving libcurl by socket (`curl_multi_socket_action`), on the loop thread.
///
/// libcurl reports the sockets it wants watched through its socket callback (``CurlSocketInterests``);
/// the loop passes them to `curl_multi_poll` as extra descriptors, which tells it which are ready,
/// and hands each ready one to `curl_multi_socket_action`, then runs libcurl's expired timers
/// (`CURL_SOCKET_TIMEOUT`, which also starts new transfers and resumes unpaused ones). Waking the
/// loop stays `curl_multi_wakeup`, and the poll still waits for libcurl's own sockets as well: only
/// what happens after it changes. Should libcurl refuse the socket callback, the loop drives it with
/// `curl_multi_perform` as before.
extension CurlLoop {
    /// Installs the socket callback; `false` when libcurl refused it.
    func installSocketCallback() -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let data = courier_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        let function = courier_curl_multi_setopt_socket_function(multi) { _, socket, what, context, _ in
            // Called on the loop thread, inside libcurl calls the loop makes; the loop outlives its
            // multi handle.
            guard let context else { return 0 }
            let loop = Unmanaged<CurlLoop>.fromOpaque(context).takeUnretainedValue()
            loop.curlSockets.update(socket: socket, what: what)
            return 0
        }
        return data == CURLM_OK && function == CURLM_OK
    }

    /// Lets libcurl act on the sockets the last poll found ready, then on its expired timers.
    func driveLibcurl() {
        guard drivesBySocket else {
            var running: Int32 = 0
            let performed = curl_multi_perform(multi, &running)
            if performed != CURLM_OK { multiCallFailed("curl_multi_perform", performed) }
            return
        }
        var running: Int32 = 0
        if !readyCurlSockets.isEmpty {
            for ready in readyCurlSockets {
                let code = curl_multi_socket_action(multi, ready.socket, ready.mask, &running)
                if code != CURLM_OK { multiCallFailed("curl_multi_socket_action", code) }
            }
            readyCurlSockets.removeAll(keepingCapacity: true)
        }
        // Once a pass, like `curl_multi_perform` runs each transfer once: a timer due again at once
        // (data libcurl holds, an unpause) runs in the next pass, after the loop's inbox and its
        // consumers' wake-ups, so that one fast transfer cannot hold the loop.
        var timeout = -1
        if curl_multi_timeout(multi, &timeout) == CURLM_OK, timeout == 0 {
            let code = curl_multi_socket_action(multi, courier_curl_socket_timeout, 0, &running)
            if code != CURLM_OK { multiCallFailed("curl_multi_socket_action", code) }
        }
    }

    /// `curl_multi_poll`, also waiting for libcurl's sockets as extra descriptors (to learn which
    /// are ready) and for the raw connections' sockets; a raw socket that became ready marks its
    /// connection for service.
    func pollSockets(timeout: Int32) -> CURLMcode {
        // Most loops have no raw connections, and one that is driven by `curl_multi_perform` needs
        // no list of libcurl's sockets: no array is set up for either.
        let watchesCurlSockets = drivesBySocket && !curlSockets.isEmpty
        if rawConnections.isEmpty && !watchesCurlSockets { return curl_multi_poll(multi, nil, 0, timeout, nil) }
        pollWaits.removeAll(keepingCapacity: true)
        if watchesCurlSockets {
            for (socket, events) in curlSockets.events {
                pollWaits.append(curl_waitfd(fd: socket, events: events, revents: 0))
            }
        }
        let curlSocketCount = pollWaits.count
        var owners: [RawConnectionState] = []
        if !rawConnections.isEmpty {
            for connection in rawConnections.values {
                let events = connection.pollEvents
                guard events != 0 else { continue }
                pollWaits.append(curl_waitfd(fd: connection.socket, events: events, revents: 0))
                owners.append(connection)
            }
        }
        if pollWaits.isEmpty { return curl_multi_poll(multi, nil, 0, timeout, nil) }
        let code = pollWaits.withUnsafeMutableBufferPointer { waits in
            curl_multi_poll(multi, waits.baseAddress, UInt32(waits.count), timeout, nil)
        }
        for wait in pollWaits[..<curlSocketCount] where wait.revents != 0 {
            let mask = CurlSocketInterests.actionMask(revents: wait.revents)
            if mask != 0 { readyCurlSockets.append((wait.fd, mask)) }
        }
        for (wait, connection) in zip(pollWaits[curlSocketCount...], owners) where wait.revents != 0 {
            connection.needsService = true
        }
        return code
    }
}
