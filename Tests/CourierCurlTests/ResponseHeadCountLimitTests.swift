import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

/// The transport's default bound on the number of fields in one response head, 1,000, at its edge.
@Suite struct ResponseHeadCountLimitTests {
    private let url = URL(string: "http://127.0.0.1/head")!
    private let limit = CurlTransport.Configuration().maximumHeaderCount

    private func fields(_ count: Int) -> [String] {
        (0..<count).map { "x-\($0): v\r\n" }
    }

    private func read(_ lines: [String], limit: Int? = nil) -> HeadReading {
        HeadReading(lines, url: url, maximumHeaderSize: 256 << 10, maximumHeaderCount: limit ?? self.limit)
    }

    @Test func aHeadOfExactlyTheDefaultCountIsRead() {
        #expect(limit == 1_000)
        #expect(limit == CurlTransport.Configuration.defaultMaximumHeaderCount)
        let result = read(["HTTP/1.1 200 OK\r\n"] + fields(limit) + ["\r\n"])
        #expect(result.status == 200)
        #expect(result.fields == 1_000)
        #expect(result.error == nil)
    }

    @Test func oneFieldMoreIsALimitExceeded() {
        let result = read(["HTTP/1.1 200 OK\r\n"] + fields(limit + 1) + ["\r\n"])
        #expect(result.status == nil)
        #expect(result.error?.category == .limitExceeded)
        #expect(result.error?.message == "the response head has more than 1000 header fields")
    }

    @Test func aConfiguredCountIsHonoured() {
        #expect(read(["HTTP/1.1 200 OK\r\n"] + fields(3) + ["\r\n"], limit: 3).status == 200)
        #expect(read(["HTTP/1.1 200 OK\r\n"] + fields(4) + ["\r\n"], limit: 3).error?.category == .limitExceeded)
    }

    /// Each head is counted on its own: an interim head's fields do not use up the final head's.
    @Test func eachHeadIsCountedOnItsOwn() {
        let interim = ["HTTP/1.1 103 Early Hints\r\n"] + fields(3) + ["\r\n"]
        let final = ["HTTP/1.1 200 OK\r\n"] + fields(3) + ["\r\n"]
        let result = read(interim + final, limit: 3)
        #expect(result.status == 200)
        #expect(result.fields == 3)
    }

    /// An obsolete folded line continues a field: it is not one more.
    @Test func aFoldedContinuationIsNotAField() {
        let lines = ["HTTP/1.1 200 OK\r\n", "a: one\r\n", " two\r\n", "b: three\r\n", "\r\n"]
        let result = read(lines, limit: 2)
        #expect(result.status == 200)
        #expect(result.fields == 2)
    }

    @Test func aCountBelowOneIsRefused() {
        var configuration = CurlTransport.Configuration()
        configuration.maximumHeaderCount = 0
        #expect(throws: TransportError.self) { try configuration.validate() }
        configuration.maximumHeaderCount = 1
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
