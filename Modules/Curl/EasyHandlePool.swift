internal import CCourierCurl
internal import CCourierCurlShim

/// Easy handles of finished transfers, reset and given the transport's options again, for the next
/// transfers to take instead of a copy of the template.
///
/// `curl_easy_reset` keeps what libcurl documents it keeps (the handle's TLS session cache among
/// it) but not the options; the loop sets the transport's options again at once, so a handle taken
/// from here is what `curl_easy_duphandle` of the template would give. A reset handle also stays
/// attached to the share it had (the reset leaves `CURLOPT_SHARE` and the cookie engine alone), so
/// handles that carried the shared cookie jar are only reused by transfers that use it, and the
/// others only by transfers without cookies: no transfer inherits a jar it did not ask for.
///
/// Loop thread only, like the handles.
struct EasyHandlePool {
    /// An idle handle with the error buffer (`CURLOPT_ERRORBUFFER`) that goes with it, emptied.
    struct Handle {
        let easy: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
        /// Options the handle kept from its last transfer (none after a reset).
        var carried: HandleOptionTrail.Carried = []

        /// Cleans up the handle and frees its error buffer.
        func release() {
            curl_easy_cleanup(easy)
            errorBuffer.deallocate()
        }
    }

    /// Idle handles kept per kind; more are cleaned up. Each keeps its receive buffer, whose untouched
    /// pages cost address space only.
    let capacity: Int
    private var withSharedCookies: [Handle] = []
    private var withoutCookies: [Handle] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// An idle handle for a transfer that does (or does not) use the shared cookie jar.
    mutating func take(sharedCookies: Bool) -> Handle? {
        sharedCookies ? withSharedCookies.popLast() : withoutCookies.popLast()
    }

    /// Keeps `handle` (already reset and configured) for the next transfer, or releases it when the
    /// pool is full.
    mutating func put(_ handle: Handle, sharedCookies: Bool) {
        if sharedCookies {
            guard withSharedCookies.count < capacity else { return handle.release() }
            withSharedCookies.append(handle)
        } else {
            guard withoutCookies.count < capacity else { return handle.release() }
            withoutCookies.append(handle)
        }
    }

    /// Cleans up every idle handle (the loop's teardown, before the multi and share handles go).
    mutating func removeAll() {
        for handle in withSharedCookies + withoutCookies { handle.release() }
        withSharedCookies.removeAll()
        withoutCookies.removeAll()
    }
}
