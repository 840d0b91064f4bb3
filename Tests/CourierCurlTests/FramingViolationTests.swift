import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct FramingViolationTests {
    @Test func rejectsTransferEncodingWithContentLength() throws {
        let headers = try HTTPHeaders([("Content-Length", "3"), ("Transfer-Encoding", "chunked")])
        #expect(
            CurlTransferState.framingViolation(headers, version: .http1_1)
                == "the response has both Transfer-Encoding and Content-Length"
        )
        #expect(CurlTransferState.framingViolation(headers, version: .http2) == nil)
    }

    @Test func rejectsConflictingContentLengths() throws {
        let conflicting = try HTTPHeaders([("Content-Length", "3"), ("Content-Length", "4")])
        #expect(
            CurlTransferState.framingViolation(conflicting, version: .http1_1)
                == "the response has conflicting Content-Length values 3, 4"
        )
        let listed = try HTTPHeaders([("Content-Length", "3, 3")])
        #expect(CurlTransferState.framingViolation(listed, version: .http1_1) == nil)
        let invalid = try HTTPHeaders([("Content-Length", "-1")])
        #expect(
            CurlTransferState.framingViolation(invalid, version: .http1_1)
                == "the response has an invalid Content-Length \"-1\""
        )
    }
}
