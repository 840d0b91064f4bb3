import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct ResponseHeadReaderTests {
    private let url = URL(string: "http://127.0.0.1/head")!

    private enum Seen: Equatable {
        case needMore
        case stop(TransportError.Category, String)
        case final(Int, [String])
    }

    private func feed(_ reader: inout ResponseHeadReader, _ lines: [String]) -> [Seen] {
        lines.map { line in
            let step = Array(line.utf8).withUnsafeBytes { reader.consume($0) }
            switch step {
            case .needMore: return .needMore
            case .stop(let error): return .stop(error.category, error.message)
            case .final(let status, _, let headers): return .final(status, headers.map { "\($0.name)=\($0.value)" })
            }
        }
    }

    @Test func readsAFinalHeadAfterAnInterimOne() {
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 1 << 10, credential: nil)
        let seen = feed(&reader, ["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n"])
        #expect(seen == [.needMore, .needMore, .needMore, .needMore, .final(200, ["A=1"])])
        #expect(reader.interimResponses == 1)
    }

    @Test func stopsPastTheHeadSizeLimit() {
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 30, credential: nil)
        let seen = feed(&reader, ["HTTP/1.1 200 OK\r\n", "X-Long: 0123456789abcdef\r\n"])
        #expect(seen == [.needMore, .stop(.limitExceeded, "the response head is larger than 30 bytes")])
    }

    @Test func stopsAfterTooManyInterimHeads() {
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 1 << 16, credential: nil)
        let interim = Array(repeating: ["HTTP/1.1 102 Processing\r\n", "\r\n"], count: 17).flatMap { $0 }
        let seen = feed(&reader, interim)
        #expect(seen.last == .stop(.protocolViolation, "the server sent more than 16 interim (1xx) responses"))
        #expect(seen.dropLast().allSatisfy { $0 == .needMore })
    }

    @Test func holdsBackTheChallengeLibcurlAnswersForADigestCredential() {
        // Given: a credential libcurl answers (Digest) and its challenge
        let credential = HTTPCredential(user: "ada", password: "pw", schemes: [.digest])
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 1 << 10, credential: credential)
        let challenge = ["HTTP/1.1 401 Unauthorized\r\n", "WWW-Authenticate: Digest realm=\"x\"\r\n", "\r\n"]

        // When / Then: the first 401 is held back, the second is the response
        #expect(feed(&reader, challenge) == [.needMore, .needMore, .needMore])
        #expect(reader.answeredChallenge?.status.code == 401)
        #expect(feed(&reader, challenge).last == .final(401, ["WWW-Authenticate=Digest realm=\"x\""]))
    }

    @Test func aBasicOnlyCredentialGetsTheChallengeAsTheResponse() {
        let credential = HTTPCredential(user: "ada", password: "pw")
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 1 << 10, credential: credential)
        let seen = feed(&reader, ["HTTP/1.1 401 Unauthorized\r\n", "WWW-Authenticate: Basic\r\n", "\r\n"])
        #expect(seen.last == .final(401, ["WWW-Authenticate=Basic"]))
        #expect(reader.answeredChallenge == nil)
    }

    @Test func reportsAMalformedStatusLine() {
        var reader = ResponseHeadReader(url: url, maximumHeaderSize: 1 << 10, credential: nil)
        let seen = feed(&reader, ["NOT HTTP\r\n"])
        guard case .stop(let category, _) = seen.first else {
            Issue.record("expected a stop, got \(seen)")
            return
        }
        #expect(category == .protocolViolation)
    }
}
