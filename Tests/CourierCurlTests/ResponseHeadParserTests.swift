import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct ResponseHeadParserTests {
    private func feed(_ lines: [String]) -> [ResponseHeadParser.Outcome] {
        var parser = ResponseHeadParser()
        return lines.map { line in
            Array(line.utf8).withUnsafeBytes { parser.consume($0) }
        }
    }

    @Test func itsTokenTestAgreesWithHTTPTokenOnEveryByte() {
        for byte in UInt8.min...UInt8.max {
            #expect(ResponseHeadParser.isTokenByte(byte) == HTTPToken.isTokenByte(byte), "byte \(byte)")
        }
    }

    @Test func trimsValuesAndRefusesNamesThatAreNotTokens() {
        let outcomes = feed(["HTTP/1.1 200 OK\r\n", "A: \t x y \t\r\n", "B:\r\n", "\r\n"])
        let expected = try? HTTPHeaders([("A", "x y"), ("B", "")])
        #expect(outcomes.last == .final(status: 200, version: .http1_1, headers: expected ?? HTTPHeaders()))
        let refused = feed(["HTTP/1.1 200 OK\r\n", "Bad Name: 1\r\n", "\r\n"])
        guard case .malformed = refused.last else {
            Issue.record("a name with a space was accepted: \(String(describing: refused.last))")
            return
        }
    }

    @Test func refusesACRLFOrNULAnywhereInAValueOfAnyLength() {
        for length in 1...20 {
            for position in 0..<length {
                for bad: UInt8 in [0x00, 0x0A, 0x0D] {
                    var value = [UInt8](repeating: UInt8(ascii: "v"), count: length)
                    value[position] = bad
                    var parser = ResponseHeadParser()
                    var outcome: ResponseHeadParser.Outcome = .pending
                    for line in [
                        Array("HTTP/1.1 200 OK\r\n".utf8), Array("X: ".utf8) + value + [0x0D, 0x0A], [0x0D, 0x0A],
                    ] {
                        outcome = line.withUnsafeBytes { parser.consume($0) }
                    }
                    guard case .malformed = outcome else {
                        Issue.record("byte \(bad) at \(position) of \(length) was accepted: \(outcome)")
                        continue
                    }
                }
            }
        }
    }

    @Test func acceptsValuesWhoseBytesOnlyResembleLineBreaks() throws {
        // Bytes that differ from CR, LF or NUL in their high bit or a low one, in words of eight.
        let value: [UInt8] = [
            0x8A, 0x8D, 0x80, 0x0B, 0x0C, 0x01, 0x2A, 0x2D, 0x8A, 0x8D, 0x80, 0x0B, 0x0C, 0x01, 0x2A, 0x2D,
        ]
        var parser = ResponseHeadParser()
        var outcome: ResponseHeadParser.Outcome = .pending
        for line in [Array("HTTP/1.1 200 OK\r\n".utf8), Array("X: ".utf8) + value + [0x0D, 0x0A], [0x0D, 0x0A]] {
            outcome = line.withUnsafeBytes { parser.consume($0) }
        }
        guard case .final(_, _, let headers) = outcome else {
            Issue.record("the value was refused: \(outcome)")
            return
        }
        #expect(headers["X"] == String(decoding: value, as: UTF8.self))
    }

    @Test func parsesStatusLines() {
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 200 OK")! == (.http1_1, 200))
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.0 404 Not Found")! == (.http1_0, 404))
        #expect(ResponseHeadParser.parseStatusLine("HTTP/2 204")! == (.http2, 204))
        #expect(ResponseHeadParser.parseStatusLine("HTTP/2 200 ")! == (.http2, 200))
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 999 Whatever")! == (.http1_1, 999))
    }

    @Test func rejectsMalformedStatusLines() {
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 20 OK") == nil)
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 2000 OK") == nil)
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 abc OK") == nil)
        #expect(ResponseHeadParser.parseStatusLine("ICY 200 OK") == nil)
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1") == nil)
        #expect(ResponseHeadParser.parseStatusLine("HTTP/1.1 099 Low") == nil)
    }

    @Test func reportsFinalHeadWithHeadersInOrder() throws {
        let outcomes = feed([
            "HTTP/1.1 200 OK\r\n", "Content-Type: text/plain\r\n", "Set-Cookie: a=1\r\n",
            "set-cookie:  b=2 \r\n", "\r\n",
        ])
        let expected = try HTTPHeaders([("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")])
        #expect(
            outcomes == [
                .pending, .pending, .pending, .pending, .final(status: 200, version: .http1_1, headers: expected),
            ]
        )
    }

    @Test func reportsInterimHeadsSeparately() throws {
        let outcomes = feed([
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 201 Created\r\n", "Location: /x\r\n", "\r\n",
        ])
        let expected = try HTTPHeaders([("Location", "/x")])
        #expect(outcomes[1] == .interim(status: 100))
        #expect(outcomes[4] == .final(status: 201, version: .http1_1, headers: expected))
    }

    @Test func joinsFoldedHeaderLines() throws {
        let outcomes = feed(["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "\t second\r\n", "\r\n"])
        let expected = try HTTPHeaders([("X-Long", "first second")])
        #expect(outcomes.last == .final(status: 200, version: .http1_1, headers: expected))
    }

    @Test func rejectsGarbage() {
        let outcomes = feed(["SSH-2.0-OpenSSH_9.2\r\n"])
        #expect(outcomes == [.malformed("malformed status line \"SSH-2.0-OpenSSH_9.2\"")])
        let noColon = feed(["HTTP/1.1 200 OK\r\n", "NoColonHere\r\n"])
        #expect(noColon.last == .malformed("header line without a colon \"NoColonHere\""))
        let badName = feed(["HTTP/1.1 200 OK\r\n", "Bad Name: x\r\n", "\r\n"])
        #expect(
            badName.last
                == .malformed(
                    "invalid header field: invalidHeaderName \"Bad Name\": a header name must be a non-empty token"
                )
        )
    }

    @Test func trimsSpacesAndTabsAroundValuesAndKeepsUTF8Whole() throws {
        let outcomes = feed([
            "HTTP/1.1 200 OK\n", "X-Name:\t caf\u{E9} \t\n", "X-Empty: \t \r\n", "X-Inner:a  b\r\n", "\n",
        ])
        let expected = try HTTPHeaders([("X-Name", "caf\u{E9}"), ("X-Empty", ""), ("X-Inner", "a  b")])
        #expect(outcomes.last == .final(status: 200, version: .http1_1, headers: expected))
    }

    @Test func countsHeaderBytes() {
        var parser = ResponseHeadParser()
        for line in ["HTTP/2 200\r\n", "a: b\r\n", "\r\n"] {
            _ = Array(line.utf8).withUnsafeBytes { parser.consume($0) }
        }
        #expect(parser.byteCount == 20)
    }
}
