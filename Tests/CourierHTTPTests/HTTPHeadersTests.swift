import CourierHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesCaseInsensitivelyAndKeepsSpelling() throws {
        // Given
        var headers = HTTPHeaders()
        try headers.add(name: "Content-Type", value: "text/plain")

        // Then
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.fields.map(\.name) == ["Content-Type"])
    }

    @Test func keepsOrderAndRepeatedFields() throws {
        let headers = try HTTPHeaders([("Set-Cookie", "a=1"), ("Accept", "*/*"), ("set-cookie", "b=2")])

        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.fields.map(\.name) == ["Set-Cookie", "Accept", "set-cookie"])
        #expect(headers["Set-Cookie"] == "a=1")
        #expect(headers.count == 3)
    }

    @Test func setReplacesEveryFieldOfTheNameInPlace() throws {
        var headers = try HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3"), ("C", "4")])

        try headers.set(name: "A", value: "9")

        #expect(headers.description == "A: 9\nB: 2\nC: 4")
    }

    @Test func setAppendsWhenAbsentAndRemoveDropsAll() throws {
        var headers = try HTTPHeaders([("A", "1"), ("a", "2")])

        try headers.set(name: "B", value: "3")
        headers.remove(name: "A")

        #expect(headers.description == "B: 3")
        #expect(!headers.contains(name: "a"))
    }

    @Test func addMissingNeverOverwrites() throws {
        var request = try HTTPHeaders([("accept", "application/json")])
        let defaults = try HTTPHeaders([("Accept", "*/*"), ("User-Agent", "courier")])

        request.addMissing(from: defaults)

        #expect(request.description == "accept: application/json\nUser-Agent: courier")
    }

    @Test func dictionaryInitialiserOrdersByName() throws {
        let headers = try HTTPHeaders(["b": "2", "A": "1", "a": "0"])

        #expect(headers.fields.map(\.name) == ["A", "a", "b"])
    }

    @Test(arguments: ["", "Bad Name", "Bad:Name", "X-Bad\r\nInjected", "é", "a\u{0}b", "(x)", "a/b"])
    func rejectsNamesThatAreNotTokens(name: String) {
        var headers = HTTPHeaders()
        #expect {
            try headers.add(name: name, value: "v")
        } throws: { error in
            (error as? HTTPValueError)?.code == .invalidHeaderName && (error as? HTTPValueError)?.value == name
        }
        #expect(headers.isEmpty)
    }

    @Test(arguments: ["a\rb", "a\nb", "a\r\nSet-Cookie: x=1", "a\u{0}b"])
    func rejectsValuesWithCRLFOrNUL(value: String) {
        var headers = HTTPHeaders()
        #expect(throws: HTTPValueError.self) { try headers.set(name: "X", value: value) }
        #expect(headers.isEmpty)
    }

    @Test func acceptsEveryTokenCharacterAndObsTextValues() throws {
        let name = "!#$%&'*+-.^_`|~09azAZ"
        let headers = try HTTPHeaders([(name, "ünïcode\tand tabs")])

        #expect(headers[name] == "ünïcode\tand tabs")
    }

    @Test func errorDescriptionEscapesTheOffendingValue() {
        let error = HTTPValueError(code: .invalidHeaderValue, value: "a\r\nb", reason: "no CR or LF")

        #expect(error.description == #"invalidHeaderValue "a\r\nb": no CR or LF"#)
    }

    @Test func namesMatchIgnoringASCIICaseOnly() {
        #expect(HTTPHeaders.namesMatch("Content-Length", "content-length"))
        #expect(HTTPHeaders.namesMatch("X-LONG-FIELD-NAME-PAST-FIFTEEN-BYTES", "x-long-field-name-past-fifteen-bytes"))
        #expect(!HTTPHeaders.namesMatch("Content-Length", "Content-Lengtx"))
        #expect(!HTTPHeaders.namesMatch("Content-Length", "Content-Length "))
        // Bytes outside A–Z are compared exactly: `[` is 0x5B, one past `Z`, and `{` is `[` | 0x20.
        #expect(!HTTPHeaders.namesMatch("a[", "a{"))
        #expect(!HTTPHeaders.namesMatch("É", "é"))
    }
}
