import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

/// The transport's default bound on a response head, 256 KiB, at its edge. The field count has its
/// own limit (`ResponseHeadCountLimitTests`); it is lifted here so that 43,000 short fields reach
/// the byte limit.
@Suite struct ResponseHeadLimitTests {
    private let url = URL(string: "http://127.0.0.1/head")!
    private let limit = CurlTransport.Configuration().maximumHeaderSize

    /// A head of `17 + 43,000 × 6 + (5 + padding) + 2` bytes: the status line, short fields, one
    /// padded field and the blank line.
    private func head(padding: Int) -> [String] {
        ["HTTP/1.1 200 OK\r\n"] + Array(repeating: "a: b\r\n", count: 43_000)
            + ["x: " + String(repeating: "p", count: padding) + "\r\n", "\r\n"]
    }

    private func read(_ lines: [String]) -> HeadReading {
        HeadReading(lines, url: url, maximumHeaderSize: limit, maximumHeaderCount: 50_000)
    }

    @Test func aHeadOfExactlyTheDefaultLimitIsRead() {
        #expect(limit == 256 << 10)
        let lines = head(padding: 4_120)
        #expect(lines.reduce(0) { $0 + $1.utf8.count } == limit)
        let result = read(lines)
        #expect(result.status == 200)
        #expect(result.fields == 43_001)
        #expect(result.error == nil)
    }

    @Test func oneByteMoreIsALimitExceeded() {
        let result = read(head(padding: 4_121))
        #expect(result.status == nil)
        #expect(result.error?.category == .limitExceeded)
        #expect(result.error?.message == "the response head is larger than 262144 bytes")
    }
}

/// What a `ResponseHeadReader` with the given limits made of `lines`: the final head's status and
/// field count, or the error of the line that stopped it (all `nil` when the head did not end).
struct HeadReading {
    var status: Int?
    var fields = 0
    var error: TransportError?

    init(_ lines: [String], url: URL, maximumHeaderSize: Int, maximumHeaderCount: Int) {
        var reader = ResponseHeadReader(
            url: url,
            maximumHeaderSize: maximumHeaderSize,
            maximumHeaderCount: maximumHeaderCount,
            credential: nil
        )
        for line in lines {
            switch Array(line.utf8).withUnsafeBytes({ reader.consume($0) }) {
            case .needMore: continue
            case .stop(let error): self.error = error
            case .final(let status, _, let headers):
                self.status = status
                fields = headers.count
            }
            return
        }
    }
}
