internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// How a transfer that libcurl ended becomes its terminal event: which failure wins, and how
/// libcurl's code and text map to a ``TransportError``.
///
/// A value of facts gathered by the ``CurlTransferState`` (loop thread) once the handle is out of
/// the multi handle; it touches no handle itself.
struct TransferCompletion {
    /// The terminal event to report.
    enum Outcome {
        /// The transfer succeeded; `challengeResponse` is the answered `401` to report as the
        /// response first, when libcurl did not send the request again.
        case completed(challengeResponse: HTTPResponse?)
        /// Boxed: a `TransportError` is hundreds of bytes, copied with every outcome otherwise.
        indirect case failed(TransportError)
    }

    /// libcurl's result code (`CURLcode`).
    var code: Int
    var url: URL
    var metrics: TransferMetrics
    /// Why one of the callbacks stopped the transfer; wins over libcurl's bare code.
    var pendingFailure: TransportError?
    /// The over-long body libcurl noticed and dropped; fails a transfer libcurl ends with success.
    var excessBodyFailure: TransportError?
    /// Whether the request body was an async producer's, which cannot be sent twice.
    var sendsOneShotBody = false
    /// libcurl's error buffer.
    var errorText = ""
    /// The typed error of a revocation rejection by the trust policy.
    var revocationFailure: (any Error)?
    var hasDeliveredHead = false
    var answeredChallenge: HTTPResponse?
    /// Says when an untrusted certificate was the proxy's (see `describingProxyTrustFailure`).
    var describingProxyTrustFailure: (String) -> String = { $0 }

    /// The outcome; `finishingBody` runs only for a transfer that libcurl completed and no callback
    /// stopped (it checks that an encoded body ended complete).
    func outcome(finishingBody: () -> TransportError?) -> Outcome {
        if let pendingFailure { return .failed(pendingFailure.with(metrics: metrics)) }
        if code == Int(CURLE_SEND_FAIL_REWIND.rawValue), sendsOneShotBody {
            // libcurl must send the body again (an authentication challenge, a connection that died
            // before the response) and a one-shot producer cannot start over.
            let refusal = HTTPValueError(
                code: .bodyAlreadyConsumed,
                value: "producer",
                reason: "libcurl had to send the one-shot body again"
            )
            return .failed(TransportError.requestBodyAlreadyConsumed(refusal, url: url).with(metrics: metrics))
        }
        guard code == Int(CURLE_OK.rawValue) else { return .failed(libcurlFailure()) }
        if let excessBodyFailure { return .failed(excessBodyFailure.with(metrics: metrics)) }
        if let decodingFailure = finishingBody() { return .failed(decodingFailure.with(metrics: metrics)) }
        if !hasDeliveredHead, let answeredChallenge {
            // libcurl did not send the request again (no scheme it could answer with): the
            // challenge is the response after all, without its body.
            return .completed(challengeResponse: answeredChallenge)
        }
        guard hasDeliveredHead else {
            return .failed(
                TransportError(
                    category: .protocolViolation,
                    message: "the server closed the exchange without a complete response head",
                    url: url,
                    metrics: metrics
                )
            )
        }
        return .completed(challengeResponse: nil)
    }

    /// The error for a transfer libcurl ended with a failure code.
    private func libcurlFailure() -> TransportError {
        let peerFailed = code == Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
        var message = errorText
        if peerFailed, let reason = metrics.trustEvaluation?.reason {
            // libcurl only says "SSL certificate problem: application verification failure".
            message = "the trust policy rejected the server: \(reason)"
        }
        if peerFailed { message = describingProxyTrustFailure(message) }
        if code == Int(CURLE_SSL_CONNECT_ERROR.rawValue) || peerFailed, let failure = revocationFailure,
            let reason = metrics.trustEvaluation?.reason
        {
            // A revocation rejection carries its typed error. A stapled OCSP response is judged
            // after the certificate-verify callback; OpenSSL then fails the handshake with a
            // bad_certificate_status_response alert, which libcurl reports as a TLS failure (35).
            return TransportError(
                category: .serverTrustFailed,
                code: code,
                message: "the trust policy rejected the server: \(reason)",
                url: url,
                metrics: metrics,
                underlying: failure
            )
        }
        return CurlErrorMapping.error(
            code: code,
            errorBuffer: message,
            url: url,
            metrics: metrics,
            context: CurlErrorMapping.Context(
                inResponseHead: !hasDeliveredHead,
                inResponseBody: hasDeliveredHead,
                isHTTP2: metrics.protocolVersion == .http2
            )
        )
    }
}
