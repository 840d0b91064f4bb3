import CourierHTTP
import Foundation
import Testing

@testable import CourierCurl

/// The framing facts the parser gathers line by line answer what the header-based checks would.
@Suite struct ResponseFramingFactsTests {
    /// The facts and the headers of the last head in `text` (lines split at CRLF, as libcurl hands them).
    private func read(_ text: String) throws -> (ResponseFraming.Facts, HTTPHeaders) {
        var parser = ResponseHeadParser()
        var headers: HTTPHeaders?
        for line in text.components(separatedBy: "\r\n").dropLast().map({ $0 + "\r\n" }) {
            var bytes = Array(line.utf8)
            let outcome = bytes.withUnsafeMutableBytes { parser.consume(UnsafeRawBufferPointer($0)) }
            if case .final(_, _, let finished) = outcome { headers = finished }
        }
        return (parser.finishedFraming, try #require(headers))
    }

    @Test(arguments: [
        "Content-Length: 100\r\nContent-Type: text/plain\r\n",
        "content-LENGTH: 007\r\n",
        "",
        "Content-Length:   42  \r\n",
        "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\n",
        "Content-Length: 3\r\nContent-Length: 4\r\n",
        "Content-Length: 3\r\nContent-Length: 3\r\n",
        "Content-Length: 3, 3\r\n",
        "Content-Length: -1\r\n",
        "Content-Length: \r\n",
        "Content-Length: 99999999999999999999\r\n",
        "Content-Lengthx: 5\r\nContent-Lengt: 5\r\n",
        "Content-Length: 10\r\nContent-Encoding: gzip\r\n",
        "Content-Length: 10\r\nContent-Encoding: identity\r\n",
        "CONTENT-ENCODING: br\r\n",
    ])
    func agreeWithTheHeaderBasedChecks(fields: String) throws {
        let (facts, headers) = try read("HTTP/1.1 200 OK\r\n\(fields)\r\n")
        #expect(facts.isExact)
        #expect(facts.isPlainlyFramed == ResponseFraming.isPlainlyFramed(headers))
        #expect(facts.hasContentLength == headers.contains(name: "Content-Length"))
        #expect(facts.identityLength(headers) == DownloadFile.identityLength(headers))
        #expect(facts.mayNameContentCoding == headers.contains(name: "Content-Encoding"))
    }

    @Test func aFoldedLineLeavesTheAnswersToTheHeaders() throws {
        let (facts, headers) = try read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n 20\r\n\r\n")
        #expect(!facts.isExact)
        #expect(facts.isPlainlyFramed == nil)
        #expect(facts.hasContentLength == nil)
        #expect(headers["Content-Length"] == "10 20")
        #expect(facts.identityLength(headers) == nil)
        #expect(!ResponseFraming.isPlainlyFramed(headers))
        #expect(facts.mayNameContentCoding)
    }

    @Test func eachHeadStartsAfresh() throws {
        let (facts, headers) = try read(
            "HTTP/1.1 100 Continue\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
        )
        #expect(facts.isPlainlyFramed == true)
        #expect(facts.identityLength(headers) == 5)
    }
}
