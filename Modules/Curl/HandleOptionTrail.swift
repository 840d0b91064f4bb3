internal import CCourierCurl
internal import CCourierCurlShim

/// The options one transfer set on its easy handle, so that the handle can go back to the
/// ``EasyHandlePool`` without `curl_easy_reset` and the transport's options set again.
///
/// libcurl keeps an easy handle's options from one transfer to the next (reusing a handle is its
/// documented way to reuse connections and caches; each transfer's state is started afresh when the
/// handle is added to a multi handle). So a handle can serve the next transfer as it is when that
/// transfer overwrites or undoes everything the previous one set. Options are sorted into four kinds:
/// - those every transfer sets (URL, callback data, connect timeout): the next one overwrites them;
/// - those with a default to put back (``undo(on:)``): timeouts, the body size limit, the header
///   list, the progress callback;
/// - those left on the handle for the next transfer, which would mostly set them to the same value
///   (``Carried``): libcurl's `Accept-Encoding` list and the shared cookie jar;
/// - any other (a method, a request body, a credential, path-as-is, ...): the handle is reset.
///
/// An option this type does not know falls in the last kind, so a new option costs a reset until it
/// is listed here, never a leak into the next transfer. Loop thread only, like the transfer.
struct HandleOptionTrail {
    /// Options a handle keeps from its last transfer. Setting them again cost libcurl allocations
    /// per transfer (its list of codings built anew, a cookie file name copied), so the next
    /// transfer sets only what differs: it takes the codings off when it does not want them, and a
    /// handle with the jar only ever serves transfers that use it (``EasyHandlePool``).
    struct Carried: OptionSet {
        let rawValue: UInt8
        /// `CURLOPT_ACCEPT_ENCODING` set to `""`: every coding libcurl knows.
        static let acceptEncoding = Carried(rawValue: 1 << 0)
        /// `CURLOPT_SHARE` with the transport's share, and `CURLOPT_COOKIEFILE` set to `""`.
        static let sharedCookieJar = Carried(rawValue: 1 << 1)
    }

    /// Options with a default that ``undo(on:)`` puts back.
    private struct Undoable: OptionSet {
        let rawValue: UInt8
        static let timeout = Undoable(rawValue: 1 << 0)
        static let lowSpeed = Undoable(rawValue: 1 << 1)
        static let maximumFileSize = Undoable(rawValue: 1 << 2)
        static let headerList = Undoable(rawValue: 1 << 3)
        static let progress = Undoable(rawValue: 1 << 4)
    }

    /// Whether an option without an undo was set: the handle must be reset before another transfer.
    private(set) var needsReset = false
    private var undoable: Undoable = []
    /// What the handle carries for the next transfer (see ``Carried``).
    private(set) var carried: Carried = []

    /// Notes that the transfer set `option`.
    mutating func record(_ option: CURLoption) {
        switch option {
        case CURLOPT_URL, CURLOPT_PRIVATE, CURLOPT_ERRORBUFFER, CURLOPT_CONNECTTIMEOUT_MS, CURLOPT_WRITEDATA,
            CURLOPT_HEADERDATA, CURLOPT_DEBUGDATA, CURLOPT_SSL_CTX_DATA:
            // Set by every transfer: `CURLOPT_SSL_CTX_DATA` by each one of a transport with a trust
            // policy.
            break
        case CURLOPT_TIMEOUT_MS: undoable.insert(.timeout)
        case CURLOPT_LOW_SPEED_LIMIT, CURLOPT_LOW_SPEED_TIME: undoable.insert(.lowSpeed)
        case CURLOPT_MAXFILESIZE_LARGE: undoable.insert(.maximumFileSize)
        case CURLOPT_HTTPHEADER: undoable.insert(.headerList)
        case CURLOPT_NOPROGRESS, CURLOPT_XFERINFODATA, CURLOPT_XFERINFOFUNCTION: undoable.insert(.progress)
        case CURLOPT_ACCEPT_ENCODING: carried.insert(.acceptEncoding)
        case CURLOPT_SHARE, CURLOPT_COOKIEFILE: carried.insert(.sharedCookieJar)
        default: needsReset = true
        }
    }

    /// Notes that the handle still carries `options` from its previous transfer, and this transfer
    /// wants them as they are.
    mutating func keep(_ options: Carried) {
        carried.formUnion(options)
    }

    /// Notes that the handle was changed in a way only a reset undoes.
    mutating func requireReset() {
        needsReset = true
    }

    /// Puts libcurl's defaults back for the undoable options the transfer set (the header list
    /// before the transfer frees it); `false` when libcurl refused one, and the handle must be reset.
    func undo(on easy: UnsafeMutableRawPointer) -> Bool {
        var ok = true
        func check(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        if undoable.contains(.timeout) { check(courier_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, 0)) }
        if undoable.contains(.lowSpeed) {
            check(courier_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 0))
            check(courier_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, 0))
        }
        if undoable.contains(.maximumFileSize) {
            check(courier_curl_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, 0))
        }
        if undoable.contains(.headerList) { check(courier_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, nil)) }
        if undoable.contains(.progress) {
            // The callback stays set but is never called with progress off; its data is cleared so
            // that nothing points at the ended transfer.
            check(courier_curl_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 1))
            check(courier_curl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, nil))
        }
        return ok
    }
}
