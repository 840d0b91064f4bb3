import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct FramingViolationTests {
    @Test func rejectsTransferEncodingWithContentLength() throws {
        let headers = try HTTPHeaders([("Content-Length", "3"), ("Transfer-Encoding", "chunked")])
        #expect(
            ResponseHeadReader.framingViolation(headers, version: .http1_1)
                == "the response has both Transfer-Encoding and Content-Length"
        )
        #expect(ResponseHeadReader.framingViolation(headers, version: .http2) == nil)
    }

    @Test func rejectsConflictingContentLengths() throws {
        let conflicting = try HTTPHeaders([("Content-Length", "3"), ("Content-Length", "4")])
        #expect(
            ResponseHeadReader.framingViolation(conflicting, version: .http1_1)
                == "the response has conflicting Content-Length values 3, 4"
        )
        let listed = try HTTPHeaders([("Content-Length", "3, 3")])
        #expect(ResponseHeadReader.framingViolation(listed, version: .http1_1) == nil)
        let invalid = try HTTPHeaders([("Content-Length", "-1")])
        #expect(
            ResponseHeadReader.framingViolation(invalid, version: .http1_1)
                == "the response has an invalid Content-Length \"-1\""
        )
    }
}
