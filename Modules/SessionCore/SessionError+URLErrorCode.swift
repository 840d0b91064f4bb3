internal import CourierSerialization
internal import CourierTransport
internal import CourierWebSocket

extension SessionError {
    /// AFNetworking's `NSURLErrorDomain` code for this error, by a fixed table.
    ///
    /// | Kind | Code |
    /// | --- | --- |
    /// | cancelled, a transport `cancelled` or `shutDown`, session invalidated | -999 (cancelled) |
    /// | transport `invalidRequest`, `configuration`, a disallowed redirect scheme | -1000 (bad URL) |
    /// | transport `timedOut`, deadline exceeded | -1001 (timed out) |
    /// | transport `nameResolutionFailed` | -1003 (cannot find host) |
    /// | not cached (a cache-only request with nothing stored) | -1008 (resource unavailable) |
    /// | transport `cannotConnect`, `proxyFailed` | -1004 (cannot connect to host) |
    /// | transport `connectionLost` | -1005 (network connection lost) |
    /// | too many redirects | -1007 (HTTP too many redirects) |
    /// | transport `protocolViolation` | -1011 (bad server response) |
    /// | transport `contentDecodingFailed` | -1015 (cannot decode content data) |
    /// | transport `requestBodyFailed`, `requestBodyAlreadyConsumed`, a one-shot body under 307/308 | -1021 (request body stream exhausted) |
    /// | transport `limitExceeded` | -1103 (data length exceeds maximum) |
    /// | transport `tlsFailed` | -1200 (secure connection failed) |
    /// | transport `serverTrustFailed` | -1202 (server certificate untrusted) |
    /// | transport `fileFailed`, `resumeFailed`, a download that cannot be moved | -3000 (cannot create file) |
    /// | serialization | the serializer's own code (-1011 unacceptable status, -1016 undecodable) |
    /// | WebSocket: a refused, redirected or invalid handshake, a protocol violation, a close by the server | -1011 (bad server response) |
    /// | WebSocket: an invalid request | -1000 (bad URL) |
    /// | WebSocket: a message or frame over the limit | -1103 (data length exceeds maximum) |
    /// | WebSocket: the close timed out | -1001 (timed out) |
    /// | WebSocket unavailable | -1002 (unsupported URL) |
    /// | anything else | -1 (unknown) |
    ///
    /// ```swift
    /// if error.urlErrorCode == -1001 { showSlowNetworkHint() }
    /// ```
    public var urlErrorCode: Int {
        switch kind {
        case .cancelled, .sessionInvalidated: return -999
        case .deadlineExceeded: return -1001
        case .redirect(.tooManyRedirects): return -1007
        case .redirect(.disallowedScheme): return -1000
        case .redirect(.bodyNotReplayable): return -1021
        case .serialization: return serialization?.urlErrorCode ?? -1
        case .adaptationFailed, .retryFailed, .resetUnavailable: return -1
        case .eventStream(.notAnEventStream): return -1011
        case .eventStream: return -1103
        case .fileMoveFailed: return -3000
        case .notCached: return -1008
        case .webSocket: return webSocketURLErrorCode
        case .webSocketUnavailable: return -1002
        case .transport(let category): return Self.urlErrorCode(category)
        }
    }

    private var webSocketURLErrorCode: Int {
        switch webSocketError {
        case .invalidRequest: -1000
        case .messageTooBig, .frameTooBig: -1103
        case .closeTimedOut: -1001
        case .transport(let error): Self.urlErrorCode(error.category)
        case .handshakeRefused, .redirectNotFollowed, .invalidHandshakeResponse, .protocolViolation, .closedByServer:
            -1011
        case nil: -1
        }
    }

    private static func urlErrorCode(_ category: TransportError.Category) -> Int {
        switch category {
        case .cancelled, .shutDown: -999
        case .invalidRequest, .configuration: -1000
        case .timedOut: -1001
        case .nameResolutionFailed: -1003
        case .cannotConnect, .proxyFailed: -1004
        case .connectionLost: -1005
        case .protocolViolation: -1011
        case .contentDecodingFailed: -1015
        case .requestBodyFailed, .requestBodyAlreadyConsumed: -1021
        case .limitExceeded: -1103
        case .tlsFailed: -1200
        case .serverTrustFailed: -1202
        case .fileFailed, .resumeFailed: -3000
        default: -1
        }
    }
}
