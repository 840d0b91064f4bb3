internal import CCourierCurl
internal import CourierTransport
internal import FoundationEssentials

/// How every `CURLcode` maps to a `TransportError.Category`.
///
/// The session layer acts on the category alone, so the table decides what is retried, what is a
/// trust failure and what is the server's fault. Codes not listed (FTP, TFTP, LDAP, SSH, RTSP and
/// telnet codes, which an HTTP-only transport never sees, and obsolete numbers) map to
/// `TransportError.Category.other`; the error keeps the raw code and libcurl's message.
///
/// | CURLcode | Category |
/// |---|---|
/// | 3 URL_MALFORMAT | invalidRequest |
/// | 2 FAILED_INIT, 4 NOT_BUILT_IN, 43 BAD_FUNCTION_ARGUMENT, 48 UNKNOWN_OPTION, 49 SETOPT_OPTION_SYNTAX | configuration |
/// | 5 COULDNT_RESOLVE_PROXY, 97 PROXY | proxyFailed |
/// | 6 COULDNT_RESOLVE_HOST | nameResolutionFailed |
/// | 7 COULDNT_CONNECT, 45 INTERFACE_FAILED, 89 NO_CONNECTION_AVAILABLE, 96 QUIC_CONNECT_ERROR | cannotConnect |
/// | 1 UNSUPPORTED_PROTOCOL, 8 WEIRD_SERVER_REPLY, 16 HTTP2, 47 TOO_MANY_REDIRECTS, 92 HTTP2_STREAM, 95 HTTP3 | protocolViolation |
/// | 18 PARTIAL_FILE, 52 GOT_NOTHING, 55 SEND_ERROR, 56 RECV_ERROR | connectionLost |
/// | 25 UPLOAD_FAILED, 26 READ_ERROR, 34 HTTP_POST_ERROR, 65 SEND_FAIL_REWIND | requestBodyFailed |
/// | 28 OPERATION_TIMEDOUT | timedOut |
/// | 33 RANGE_ERROR, 36 BAD_DOWNLOAD_RESUME | resumeFailed |
/// | 35 SSL_CONNECT_ERROR, 53/54/66 SSL_ENGINE_*, 58 SSL_CERTPROBLEM, 59 SSL_CIPHER, 64 USE_SSL_FAILED, 77 SSL_CACERT_BADFILE, 80 SSL_SHUTDOWN_FAILED, 82 SSL_CRL_BADFILE, 98 SSL_CLIENTCERT | tlsFailed |
/// | 60 PEER_FAILED_VERIFICATION, 83 SSL_ISSUER_ERROR, 90 SSL_PINNEDPUBKEYNOTMATCH, 91 SSL_INVALIDCERTSTATUS | serverTrustFailed |
/// | 61 BAD_CONTENT_ENCODING | contentDecodingFailed |
/// | 63 FILESIZE_EXCEEDED | limitExceeded |
/// | 42 ABORTED_BY_CALLBACK | cancelled |
/// | 22 HTTP_RETURNED_ERROR, 23 WRITE_ERROR, 27 OUT_OF_MEMORY, 81 AGAIN, 93 RECURSIVE_API_CALL, 94 AUTH_ERROR, 99 UNRECOVERABLE_POLL, others | other |
///
/// `UNSUPPORTED_PROTOCOL` counts as a protocol violation: the transport rejects non-HTTP schemes
/// before libcurl sees them, so libcurl only reports it for a reply without a valid status line
/// ("Received HTTP/0.9 when not allowed").
///
/// Some codes are too generic on their own; ``category(forCode:message:context:)`` refines them
/// from libcurl's error text and what the transfer knows (measured with libcurl 7.88.1 against
/// `Integration/servers/fault_server.py`):
///
/// | CURLcode | when | Category |
/// |---|---|---|
/// | 56 RECV_ERROR | "Illegal or missing hexadecimal sequence in chunked-encoding" or another chunk error | protocolViolation |
/// | 56 RECV_ERROR | "Too large response headers" (libcurl's own 300 KiB head limit) | limitExceeded |
/// | 27 OUT_OF_MEMORY | before the final head: libcurl's 100 KiB limit on one header line | limitExceeded |
/// | 27 OUT_OF_MEMORY | in the body: libcurl's 64 MiB buffer for a paused transfer overflowed (no longer reached by compressed bodies: the transport decodes them itself, as it reads) | limitExceeded |
/// | 18 PARTIAL_FILE | over HTTP/2, "transfer closed with N bytes remaining to read": nghttp2 ended the session on a frame error | protocolViolation |
///
/// Over HTTP/1.1, 18 stays a lost connection (the body ended early), and a server that closes an
/// HTTP/2 connection under a stream is reported by libcurl as "not closed cleanly before end of the
/// underlying stream", which stays a lost connection too. 52 GOT_NOTHING stays a lost connection even
/// when nghttp2 ended the session on a bad HPACK block before any head: libcurl 7.88 says nothing
/// that tells that apart from a server that closed without answering. 1 UNSUPPORTED_PROTOCOL needs
/// no text: see below.
///
/// `WRITE_ERROR` and `ABORTED_BY_CALLBACK` are what libcurl reports when one of the transport's own
/// callbacks stops a transfer (a limit, a full disk, a failed body producer); the transport then
/// reports the reason it recorded itself, and this table only applies to the bare code.
enum CurlErrorMapping {
    /// What the transfer knew when it failed, for codes whose meaning depends on it.
    struct Context {
        /// No final response head had been accepted yet.
        var inResponseHead = false
        /// A final head had been accepted: the body was being received.
        var inResponseBody = false
        /// The connection spoke HTTP/2.
        var isHTTP2 = false
    }

    /// The category of a raw `CURLcode` value.
    static func category(forCode code: Int) -> TransportError.Category {
        table[code] ?? .other
    }

    /// The category of a `CURLcode`, refined by libcurl's message and the transfer's context where
    /// the code alone is too generic (see the second table above).
    static func category(forCode code: Int, message: String, context: Context) -> TransportError.Category {
        switch code {
        case 56 where LibcurlText.chunkedEncoding.occurs(in: message):
            return .protocolViolation
        case 56 where LibcurlText.tooLargeResponseHeaders.matchedPrefix(of: message) != nil:
            return .limitExceeded
        case 27 where context.inResponseHead || context.inResponseBody:
            return .limitExceeded
        case 18 where context.isHTTP2 && LibcurlText.http2TransferClosed.matchedPrefix(of: message) != nil:
            return .protocolViolation
        default:
            return category(forCode: code)
        }
    }

    private static let table: [Int: TransportError.Category] = {
        var table: [Int: TransportError.Category] = [:]
        func map(_ codes: [Int], _ category: TransportError.Category) {
            for code in codes { table[code] = category }
        }
        map([3], .invalidRequest)
        map([2, 4, 43, 48, 49], .configuration)
        map([5, 97], .proxyFailed)
        map([6], .nameResolutionFailed)
        map([7, 45, 89, 96], .cannotConnect)
        map([1, 8, 16, 47, 92, 95], .protocolViolation)
        map([18, 52, 55, 56], .connectionLost)
        map([25, 26, 34, 65], .requestBodyFailed)
        map([28], .timedOut)
        map([33, 36], .resumeFailed)
        map([35, 53, 54, 58, 59, 64, 66, 77, 80, 82, 98], .tlsFailed)
        map([60, 83, 90, 91], .serverTrustFailed)
        map([61], .contentDecodingFailed)
        map([63], .limitExceeded)
        map([42], .cancelled)
        return table
    }()

    /// The error for a failed transfer: the category from the tables, libcurl's detailed message from
    /// the transfer's error buffer when it wrote one, else the generic `curl_easy_strerror` text.
    static func error(
        code raw: Int,
        errorBuffer: String,
        url: URL?,
        metrics: TransferMetrics?,
        context: Context = Context()
    ) -> TransportError {
        let generic = String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(truncatingIfNeeded: raw))))
        var message = errorBuffer.isEmpty ? generic : errorBuffer
        if raw == 27 && context.inResponseHead {
            message = "a response header line is longer than libcurl's limit of 100 KiB (\(message))"
        } else if raw == 27 && context.inResponseBody {
            message =
                "libcurl's 64 MiB buffer for a paused transfer overflowed: the decoded body grew faster "
                + "than it was read (\(message))"
        }
        return TransportError(
            category: category(forCode: raw, message: message, context: context),
            code: raw,
            message: message,
            url: url,
            metrics: metrics
        )
    }
}
