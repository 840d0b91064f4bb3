internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierDiagnostics
internal import CourierHTTP
internal import CourierLocking
internal import CourierSecurity
internal import CourierTransport
internal import FoundationEssentials

/// The trust evaluation of the connection a transfer opened, for its metrics and error message.
///
/// The note belongs to the transfer whose easy handle libcurl was connecting when it called
/// `CURLOPT_SSL_CTX_FUNCTION`: libcurl makes one `SSL_CTX` per connection, and the installation on it
/// reports to the note of the transfer that created it. The verify callback runs inside that
/// transfer's handshake, so only the opening transfer gets a record; transfers that later reuse the
/// connection, or multiplex on it over HTTP/2, never install anything and carry none.
///
/// Written by the policy's `onDecision` callback inside the handshake and read when the transfer
/// completes, both on the loop thread; the `Lock` only makes the class `Sendable`, as the callback
/// must be, and is never contended.
final class TrustEvaluationNote: Sendable {
    private let latest = Lock<(record: TrustEvaluationRecord, revocationFailure: SecurityError?)?>(nil)

    func record(_ record: TrustEvaluationRecord, revocationFailure: SecurityError?) {
        latest.withLock { $0 = (record, revocationFailure) }
    }

    /// The last evaluation of the transfer's own connection (libcurl retries a request on a fresh
    /// connection when a reused one died, which evaluates again).
    var record: TrustEvaluationRecord? { latest.withLock { $0?.record } }

    /// Why the hook rejected that connection for revocation, if it did: the failed transfer's
    /// underlying error.
    var revocationFailure: SecurityError? { latest.withLock { $0?.revocationFailure } }
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
        guard let installer = loop.configuration.trustInstaller, let note = trustEvaluation else { return CURLE_OK }
        let diagnostics = loop.configuration.diagnostics
        let transferID = id
        let url = request.url
        do {
            try installer.install(on: sslContext, host: request.url.host(percentEncoded: false)) { trust, decision in
                let record = TrustEvaluationRecord(trust, decision)
                note.record(record, revocationFailure: trust.revocationFailure)
                Self.report(record, diagnostics: diagnostics, transferID: transferID, url: url)
            }
            return CURLE_OK
        } catch {
            pendingFailure = TransportError(
                category: .tlsFailed,
                message: "the trust policy could not be installed: \(error)",
                url: request.url,
                underlying: error
            )
            loop.diagnose(.error, "the trust policy could not be installed: \(error)", about: self)
            return CURLE_ABORTED_BY_CALLBACK
        }
    }

    /// A trust outcome as a diagnostic: an acceptance is worth keeping, a rejection is a handled fault.
    private static func report(
        _ record: TrustEvaluationRecord,
        diagnostics: Diagnostics,
        transferID: Int,
        url: URL
    ) {
        diagnostics.log(
            record.isAccepted ? .info : .warning,
            "trust evaluation for \(record.host ?? "-"): \(record.decision)",
            metadata: [
                "transfer": String(transferID),
                "url": url.absoluteString,
                "trust.host": record.host ?? "",
                "trust.leaf": record.leafSubject ?? "",
                "trust.chain": record.chain.map(\.description).joined(separator: ", "),
                "trust.defaultVerdict": record.defaultVerdict,
                "trust.decision": record.isAccepted ? "accept" : "reject",
            ]
        )
    }
}
