internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// A transfer's response head as libcurl's header callback hands it over, line by line: the size
/// limit, interim heads, the `401` challenge libcurl answers itself, and the framing checks.
///
/// Loop thread only, like the ``CurlTransferState`` that holds it. Trailers (lines after the head
/// was delivered) never reach it.
struct ResponseHeadReader {
    /// What one header line does.
    enum Step {
        /// The head goes on.
        case needMore
        /// The transfer stops; the error says why. Boxed: a `TransportError` is hundreds of bytes
        /// (its metrics, its response), which every step of every header line copied otherwise.
        indirect case stop(TransportError)
        /// A final head: the response, unless its framing is refused (see ``framingViolation(_:version:)``).
        case final(status: Int, version: HTTPResponse.Version, headers: HTTPHeaders)
    }

    /// Interim heads accepted before a response: `100 Continue`, `102 Processing`, `103 Early Hints`
    /// and an h2c `101` are each sent once or a few times, never more than a handful.
    static var maximumInterimResponses: Int { 16 }

    let url: URL
    let maximumHeaderSize: Int
    /// The most fields one head may have (each head counted on its own, interim heads included).
    let maximumHeaderCount: Int
    /// The credential libcurl answers a challenge with: one that is not sent at once (Digest, or a
    /// choice of schemes); `nil` when libcurl answers none.
    let answeringCredential: HTTPCredential?
    private var parser: ResponseHeadParser
    private(set) var interimResponses = 0
    /// The `401` challenge head libcurl answered; reported as the response only if no other follows.
    private(set) var answeredChallenge: HTTPResponse?
    /// The framing facts of the last head read: the final one's once ``consume(_:)`` returned `.final`.
    var framing: ResponseFraming.Facts { parser.finishedFraming }

    /// A reader for a transfer to `url`; `strings`, when given, lends its field Strings to the parser.
    init(
        url: URL,
        maximumHeaderSize: Int,
        maximumHeaderCount: Int = CurlTransport.Configuration.defaultMaximumHeaderCount,
        credential: HTTPCredential?,
        strings: HeaderStringCache? = nil
    ) {
        parser = ResponseHeadParser(strings: strings)
        self.url = url
        self.maximumHeaderSize = maximumHeaderSize
        self.maximumHeaderCount = maximumHeaderCount
        answeringCredential = credential.flatMap { $0.schemes.contains(.digest) ? $0 : nil }
    }

    /// Reads one header line.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Step {
        if parser.byteCount + line.count > maximumHeaderSize {
            return stop(.limitExceeded, "the response head is larger than \(maximumHeaderSize) bytes")
        }
        switch parser.consume(line) {
        case .pending:
            guard parser.fieldCount <= maximumHeaderCount else {
                return stop(.limitExceeded, "the response head has more than \(maximumHeaderCount) header fields")
            }
            return .needMore
        case .interim:
            // libcurl accepts interim heads without end (until 300 KiB of them, 72 s at 5 ms each).
            interimResponses += 1
            guard interimResponses <= Self.maximumInterimResponses else {
                return stop(
                    .protocolViolation,
                    "the server sent more than \(Self.maximumInterimResponses) interim (1xx) responses"
                )
            }
            return .needMore
        case .malformed(let reason):
            return stop(.protocolViolation, reason)
        case .final(let status, let version, let headers):
            if isChallengeLibcurlAnswers(status: status, headers: headers) {
                // libcurl sends the request again with the credential; this head and its body are
                // not the response (TransferEvent's order contract).
                answeredChallenge = HTTPResponse(
                    status: HTTPStatus(code: status),
                    headers: headers,
                    url: url,
                    version: version
                )
                return .needMore
            }
            return .final(status: status, version: version, headers: headers)
        }
    }

    private func stop(_ category: TransportError.Category, _ message: String) -> Step {
        .stop(TransportError(category: category, message: message, url: url))
    }

    /// Whether a head is the first `401` challenge for a credential libcurl will answer (a scheme
    /// the credential allows, named in `WWW-Authenticate`). A second `401` is the response: the
    /// server refused the answer.
    private func isChallengeLibcurlAnswers(status: Int, headers: HTTPHeaders) -> Bool {
        guard status == 401, answeredChallenge == nil, let credential = answeringCredential else { return false }
        return headers.values(for: "WWW-Authenticate").contains { challenge in
            let scheme = challenge.prefix { $0 != " " && $0 != "," }.lowercased()
            return (scheme == "digest" && credential.schemes.contains(.digest))
                || (scheme == "basic" && credential.schemes.contains(.basic))
        }
    }

    /// Framing that libcurl tolerates but that makes the body length ambiguous (request smuggling's
    /// raw material): `Transfer-Encoding` together with `Content-Length` (RFC 9112 §6.1), or
    /// `Content-Length` values that disagree or are not numbers (RFC 9110 §8.6).
    static func framingViolation(_ headers: HTTPHeaders, version: HTTPResponse.Version) -> String? {
        if ResponseFraming.isPlainlyFramed(headers) { return nil }  // one pass, no allocation
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let lengths = headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }.map {
            String($0.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        }
        if version == .http1_0 || version == .http1_1, headers.contains(name: "Transfer-Encoding"), !lengths.isEmpty {
            return "the response has both Transfer-Encoding and Content-Length"
        }
        guard let first = lengths.first else { return nil }
        guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return "the response has an invalid Content-Length \(first.debugDescription)"
        }
        if lengths.contains(where: { $0 != first }) {
            return "the response has conflicting Content-Length values \(lengths.joined(separator: ", "))"
        }
        return nil
    }
}
