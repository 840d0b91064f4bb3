import CourierTransport
import Testing

@testable import CourierCurl

@Suite struct CurlErrorMappingTests {
    @Test func mapsConnectionFailures() {
        #expect(CurlErrorMapping.category(forCode: 6) == .nameResolutionFailed)
        #expect(CurlErrorMapping.category(forCode: 7) == .cannotConnect)
        #expect(CurlErrorMapping.category(forCode: 28) == .timedOut)
        #expect(CurlErrorMapping.category(forCode: 52) == .connectionLost)
        #expect(CurlErrorMapping.category(forCode: 56) == .connectionLost)
        #expect(CurlErrorMapping.category(forCode: 18) == .connectionLost)
    }

    @Test func mapsTLSFailures() {
        #expect(CurlErrorMapping.category(forCode: 60) == .serverTrustFailed)
        #expect(CurlErrorMapping.category(forCode: 90) == .serverTrustFailed)
        #expect(CurlErrorMapping.category(forCode: 35) == .tlsFailed)
        #expect(CurlErrorMapping.category(forCode: 58) == .tlsFailed)
        #expect(CurlErrorMapping.category(forCode: 77) == .tlsFailed)
    }

    @Test func mapsProtocolAndBodyFailures() {
        #expect(CurlErrorMapping.category(forCode: 8) == .protocolViolation)
        #expect(CurlErrorMapping.category(forCode: 16) == .protocolViolation)
        #expect(CurlErrorMapping.category(forCode: 92) == .protocolViolation)
        #expect(CurlErrorMapping.category(forCode: 61) == .contentDecodingFailed)
        #expect(CurlErrorMapping.category(forCode: 63) == .limitExceeded)
        #expect(CurlErrorMapping.category(forCode: 26) == .requestBodyFailed)
        #expect(CurlErrorMapping.category(forCode: 65) == .requestBodyFailed)
        #expect(CurlErrorMapping.category(forCode: 33) == .resumeFailed)
        #expect(CurlErrorMapping.category(forCode: 5) == .proxyFailed)
        #expect(CurlErrorMapping.category(forCode: 97) == .proxyFailed)
        #expect(CurlErrorMapping.category(forCode: 3) == .invalidRequest)
        #expect(CurlErrorMapping.category(forCode: 1) == .protocolViolation)
        #expect(CurlErrorMapping.category(forCode: 48) == .configuration)
        #expect(CurlErrorMapping.category(forCode: 42) == .cancelled)
    }

    @Test func mapsUnknownAndNonHTTPCodesToOther() {
        #expect(CurlErrorMapping.category(forCode: 9) == .other)  // FTP access denied
        #expect(CurlErrorMapping.category(forCode: 23) == .other)
        #expect(CurlErrorMapping.category(forCode: 1234) == .other)
        #expect(CurlErrorMapping.category(forCode: -1) == .other)
    }

    @Test func keepsErrorBufferOverGenericText() {
        let detailed = CurlErrorMapping.error(
            code: 7,
            errorBuffer: "Failed to connect to 127.0.0.1 port 9: Connection refused",
            url: nil,
            metrics: nil
        )
        #expect(detailed.category == .cannotConnect)
        #expect(detailed.code == 7)
        #expect(detailed.message == "Failed to connect to 127.0.0.1 port 9: Connection refused")
        let generic = CurlErrorMapping.error(code: 28, errorBuffer: "", url: nil, metrics: nil)
        #expect(generic.message == "Timeout was reached")
    }
}

@Suite struct CurlErrorMappingRefinementTests {
    typealias Context = CurlErrorMapping.Context

    @Test func chunkErrorsAreProtocolViolations() {
        let message = "Illegal or missing hexadecimal sequence in chunked-encoding"
        #expect(CurlErrorMapping.category(forCode: 56, message: message, context: Context()) == .protocolViolation)
        let reset = "Recv failure: Connection reset by peer"
        #expect(CurlErrorMapping.category(forCode: 56, message: reset, context: Context()) == .connectionLost)
    }

    @Test func libcurlHeadLimitsAreLimitsExceeded() {
        let message = "Too large response headers: 307216 > 307200"
        #expect(CurlErrorMapping.category(forCode: 56, message: message, context: Context()) == .limitExceeded)
        let inHead = Context(inResponseHead: true, inResponseBody: false, isHTTP2: false)
        #expect(CurlErrorMapping.category(forCode: 27, message: "Out of memory", context: inHead) == .limitExceeded)
        #expect(CurlErrorMapping.category(forCode: 27, message: "Out of memory", context: Context()) == .other)
        let error = CurlErrorMapping.error(code: 27, errorBuffer: "", url: nil, metrics: nil, context: inHead)
        #expect(error.message == "a response header line is longer than libcurl's limit of 100 KiB (Out of memory)")
        let inBody = Context(inResponseHead: false, inResponseBody: true, isHTTP2: false)
        #expect(CurlErrorMapping.category(forCode: 27, message: "Out of memory", context: inBody) == .limitExceeded)
    }

    @Test func http2SessionFailuresAreProtocolViolations() {
        let h2 = Context(inResponseHead: false, inResponseBody: true, isHTTP2: true)
        let closed = "transfer closed with 10 bytes remaining to read"
        #expect(CurlErrorMapping.category(forCode: 18, message: closed, context: h2) == .protocolViolation)
        #expect(CurlErrorMapping.category(forCode: 18, message: closed, context: Context()) == .connectionLost)
        let unclean = "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream"
        #expect(CurlErrorMapping.category(forCode: 18, message: unclean, context: h2) == .connectionLost)
        #expect(
            CurlErrorMapping.category(forCode: 52, message: "Empty reply from server", context: h2)
                == .connectionLost
        )
        #expect(
            CurlErrorMapping.category(forCode: 52, message: "Empty reply from server", context: Context())
                == .connectionLost
        )
    }
}
