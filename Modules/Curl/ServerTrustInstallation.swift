internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierHTTP
internal import CourierSecurity
internal import CourierTransport
internal import FoundationEssentials
internal import Synchronization

/// The reason a transfer's trust policy gave when it rejected a connection, for the error message.
///
/// Written by the policy's `onDecision` callback inside the handshake and read when the transfer
/// completes, both on the loop thread; the `Mutex` only makes the class `Sendable`, as the callback
/// must be, and is never contended.
final class TrustRejectionNote: Sendable {
    private let reason = Mutex<String?>(nil)

    func record(_ decision: TrustDecision) {
        guard case .reject(let reason) = decision else { return }
        self.reason.withLock { $0 = reason }
    }

    var lastReason: String? { reason.withLock { $0 } }
}

extension CurlTransferState {
    /// `CURLOPT_SSL_CTX_FUNCTION`: libcurl calls it with the `SSL_CTX` of every new TLS connection of
    /// the transfer, before the handshake; the user data is the transfer (unretained).
    static let sslContextCallback: curl_ssl_ctx_callback = { _, sslContext, userdata in
        guard let sslContext, let userdata else { return CURLE_ABORTED_BY_CALLBACK }
        let transfer = Unmanaged<CurlTransferState>.fromOpaque(userdata).takeUnretainedValue()
        return transfer.installTrust(on: sslContext)
    }

    /// Hands the connection's context to the configured policy, with the request's host (the name
    /// the certificate must carry; `CURLOPT_RESOLVE` and `CURLOPT_CONNECT_TO` keep it).
    private func installTrust(on sslContext: UnsafeMutableRawPointer) -> CURLcode {
        guard let installer = loop.configuration.trustInstaller, let note = trustRejection else { return CURLE_OK }
        do {
            try installer.install(on: sslContext, host: request.url.host(percentEncoded: false)) { _, decision in
                note.record(decision)
            }
            return CURLE_OK
        } catch {
            pendingFailure = TransportError(
                category: .tlsFailed,
                message: "the trust policy could not be installed: \(error)",
                url: request.url,
                underlying: error
            )
            return CURLE_ABORTED_BY_CALLBACK
        }
    }
}
