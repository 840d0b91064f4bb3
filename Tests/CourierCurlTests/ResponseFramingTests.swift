import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct ResponseFramingTests {
    @Test func recognisesOneNumericContentLengthOrNone() throws {
        #expect(ResponseFraming.isPlainlyFramed(try HTTPHeaders([("Content-Length", "100")])))
        #expect(ResponseFraming.isPlainlyFramed(try HTTPHeaders([("content-LENGTH", "0"), ("X-A", "b")])))
        #expect(ResponseFraming.isPlainlyFramed(try HTTPHeaders([("Content-Type", "text/plain")])))
        #expect(ResponseFraming.isPlainlyFramed(HTTPHeaders()))
    }

    @Test func leavesEverythingElseToTheFullCheck() throws {
        let heads: [[(String, String)]] = [
            [("Content-Length", "3"), ("Transfer-Encoding", "chunked")],
            [("Transfer-Encoding", "chunked")],
            [("Content-Length", "3"), ("Content-Length", "3")],
            [("Content-Length", "3, 3")],
            [("Content-Length", "-1")],
            [("Content-Length", "")],
            [("Content-Length", "1e3")],
            [("TRANSFER-ENCODING", "gzip")],
        ]
        for fields in heads {
            #expect(!ResponseFraming.isPlainlyFramed(try HTTPHeaders(fields)), "\(fields)")
        }
    }

    @Test func agreesWithTheFullCheckWheneverItAnswersYes() throws {
        let heads: [[(String, String)]] = [
            [("Content-Length", "100")], [("Content-Length", "007")], [], [("Content-Lengthx", "a")],
            [("Content-Lengt", "a")], [("Transfer-Encodings", "x"), ("Content-Length", "5")],
        ]
        for fields in heads {
            let headers = try HTTPHeaders(fields)
            #expect(ResponseFraming.isPlainlyFramed(headers), "\(fields)")
            #expect(ResponseHeadReader.framingViolation(headers, version: .http1_1) == nil, "\(fields)")
        }
    }
}
