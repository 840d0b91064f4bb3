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
