internal import CCourierCurl
internal import CCourierCurlShim

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Driving libcurl by socket (`curl_multi_socket_action`), on the loop thread.
///
/// libcurl reports the sockets it wants watched through its socket callback, kept in the loop's
/// poll set (``LoopPollSet``) beside the loop's wake-up descriptor; the loop polls that set
/// itself, with libcurl's own timeout (`curl_multi_timeout`) as one bound, and hands each ready
/// socket to `curl_multi_socket_action`, then runs libcurl's expired timers once
/// (`CURL_SOCKET_TIMEOUT`, which also starts new transfers and continues unpaused ones). Other
/// threads wake the loop through the wake-up descriptor (an eventfd); `curl_multi_wakeup` would
/// need `curl_multi_poll`, which polls libcurl's sockets itself and so cannot say which are ready.
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
            loop.pollSet.update(socket: socket, what: what)
            return 0
        }
        return data == CURLM_OK && function == CURLM_OK
    }

    /// Lets libcurl act on the sockets the last poll found ready, then on its expired timers.
    func driveLibcurl() {
        var running: Int32 = 0
        if !readyCurlSockets.isEmpty {
            for ready in readyCurlSockets {
                let code = curl_multi_socket_action(multi, ready.socket, ready.mask, &running)
                if code != CURLM_OK { multiCallFailed("curl_multi_socket_action", code) }
            }
            readyCurlSockets.removeAll(keepingCapacity: true)
        }
        // Once a pass, as `curl_multi_perform` ran each transfer once: a timer due again at once
        // (data libcurl holds, an unpause) runs in the next pass, after the loop's inbox and its
        // consumers' wake-ups, so that one fast transfer cannot hold the loop.
        var timeout = -1
        if curl_multi_timeout(multi, &timeout) == CURLM_OK, timeout == 0 {
            let code = curl_multi_socket_action(multi, courier_curl_socket_timeout, 0, &running)
            if code != CURLM_OK { multiCallFailed("curl_multi_socket_action", code) }
        }
    }

    /// Waits for the wake-up descriptor, libcurl's sockets and the raw connections' sockets, at most
    /// `timeout` milliseconds or until libcurl's next timer; notes which of libcurl's sockets are
    /// ready, and marks a raw connection whose socket became ready for service.
    func pollSockets(timeout: Int32) {
        var owners: [RawConnectionState] = []
        if !rawConnections.isEmpty {
            for connection in rawConnections.values {
                let events = connection.pollEvents
                guard events != 0 else { continue }
                pollSet.appendTemporary(socket: connection.socket, events: events)
                owners.append(connection)
            }
        }
        var wait = timeout
        var curlTimeout = -1
        if curl_multi_timeout(multi, &curlTimeout) == CURLM_OK, curlTimeout >= 0, curlTimeout < Int(wait) {
            wait = Int32(curlTimeout)
        }
        if pollSet.waitForReadiness(timeout: wait) > 0 {
            let descriptors = pollSet.descriptors
            if descriptors[0].revents != 0 { courier_wake_descriptor_drain(wakeDescriptor) }
            let rawStart = 1 + pollSet.curlSocketCount
            for index in 1..<rawStart where descriptors[index].revents != 0 {
                let mask = LoopPollSet.actionMask(revents: descriptors[index].revents)
                if mask != 0 { readyCurlSockets.append((descriptors[index].fd, mask)) }
            }
            for (offset, connection) in owners.enumerated() where descriptors[rawStart + offset].revents != 0 {
                connection.needsService = true
            }
        }
        if !owners.isEmpty { pollSet.removeTemporaryDescriptors() }
    }
}
