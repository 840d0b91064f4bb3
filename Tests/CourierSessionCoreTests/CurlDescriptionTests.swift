import CourierHTTP
import CourierSessionCore
import CourierTransport
import Foundation
import Testing

@Suite struct CurlDescriptionTests {
    private let url = URL(string: "https://api.example.com/items")!

    private func request(_ method: HTTPMethod = .get, _ fields: [(String, String)] = []) throws -> HTTPRequest {
        HTTPRequest(method: method, url: url, headers: try HTTPHeaders(fields))
    }

    @Test func writesEveryPartOnOneLineQuotedAndRedacted() throws {
        var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/it's")!)
        try request.headers.set(name: "Authorization", value: "Bearer secret")
        try request.headers.set(name: "X-Note", value: "it's \"quoted\" $HOME `x`")
        request.body = HTTPBody(Data(#"{"a":"it's"}"#.utf8))
        request.credential = HTTPCredential(user: "ada", password: "pw", schemes: .digest)

        #expect(
            request.curlDescription()
                == #"curl -X 'POST' --digest -u 'ada:***' -H 'Authorization: ***' "#
                + #"-H 'X-Note: it'\''s "quoted" $HOME `x`' -H 'User-Agent:' -H 'Content-Type:' "#
                + #"--data-raw '{"a":"it'\''s"}' 'https://api.example.com/it'\''s'"#
        )
        let revealed = request.curlDescription(revealingSecrets: true)
        #expect(revealed.contains("-u 'ada:pw'"))
        #expect(revealed.contains("-H 'Authorization: Bearer secret'"))
    }

    @Test func writesOneOptionALineInTheMultiLineStyle() throws {
        var request = try request(.put, [("Content-Type", "text/plain"), ("User-Agent", "app/1.0")])
        request.body = HTTPBody(Data("line one\nline 'two'".utf8))

        #expect(
            request.curlDescription(style: .multiLine, decompressesResponse: true) == """
                curl \\
                  -X 'PUT' \\
                  -H 'Content-Type: text/plain' \\
                  -H 'User-Agent: app/1.0' \\
                  --compressed \\
                  --data-raw 'line one
                line '\\''two'\\''' \\
                  'https://api.example.com/items'
                """
        )
    }

    @Test func multiLineOutputSplitsBackIntoTheSameArguments() throws {
        var request = try request(.post, [("X-Quote", "a'b\\c"), ("Accept", "*/*"), ("X-Empty", "")])
        request.body = HTTPBody(Data("x=1&y='2'\n\\".utf8))
        request.credential = HTTPCredential(user: "o'neil", password: "p:w'd", schemes: [.basic, .digest])
        let cookie = Cookie(name: "s", value: "a'b", domain: "api.example.com")

        let described = request.curlDescription(style: .multiLine, cookies: [cookie], revealingSecrets: true)

        #expect(
            try ShellWords.split(described) == [
                "curl", "-X", "POST", "--anyauth", "-u", "o'neil:p:w'd", "-b", "s=a'b", "-H", "X-Quote: a'b\\c",
                "-H", "Accept: */*", "-H", "X-Empty;", "-H", "User-Agent:", "-H", "Content-Type:",
                "--data-raw", "x=1&y='2'\n\\", "https://api.example.com/items",
            ]
        )
        #expect(try ShellWords.split(request.curlDescription(revealingSecrets: true)).count == 19)
    }

    private let storedCookies = [
        Cookie(name: "session", value: "abc", domain: "api.example.com"),
        Cookie(name: "theme", value: "dark", domain: "example.com", isHostOnly: false),
    ]

    @Test func keepsDotSegmentsWithPathAsIs() throws {
        var request = HTTPRequest(url: URL(string: "https://api.example.com/a/../b")!)
        try request.headers.set(name: "User-Agent", value: "app")
        let squashed = request.curlDescription()
        request.sendsPathAsIs = true

        #expect(
            request.curlDescription()
                == "curl -X 'GET' -H 'User-Agent: app' --path-as-is 'https://api.example.com/a/../b'"
        )
        #expect(squashed == "curl -X 'GET' -H 'User-Agent: app' 'https://api.example.com/a/../b'")
    }

    @Test func sendsTheStoresCookiesWithValuesRedacted() throws {
        let request = try request(.get, [("User-Agent", "app")])

        #expect(
            request.curlDescription(style: .singleLine, cookies: storedCookies)
                == "curl -X 'GET' -b 'session=***; theme=***' -H 'User-Agent: app' 'https://api.example.com/items'"
        )
        #expect(
            request.curlDescription(style: .singleLine, cookies: storedCookies, revealingSecrets: true)
                == "curl -X 'GET' -b 'session=abc; theme=dark' -H 'User-Agent: app' 'https://api.example.com/items'"
        )
    }

    @Test func sendsTheStoresCookiesInAFieldBeforeTheRequestsOwn() throws {
        let request = try request(.get, [("User-Agent", "app"), ("Cookie", "own=1")])

        #expect(
            request.curlDescription(style: .singleLine, cookies: storedCookies, revealingSecrets: true)
                == "curl -X 'GET' -H 'Cookie: session=abc; theme=dark' -H 'User-Agent: app' -H 'Cookie: own=1' "
                + "'https://api.example.com/items'"
        )
        #expect(
            request.curlDescription(style: .singleLine, cookies: storedCookies)
                == "curl -X 'GET' -H 'Cookie: session=***; theme=***' -H 'User-Agent: app' -H 'Cookie: ***' "
                + "'https://api.example.com/items'"
        )
    }

    @Test func keepsTheRequestsCookieFieldAsAHeaderWhenTheStoreHasNone() throws {
        let request = try request(.get, [("Cookie", "own=1"), ("User-Agent", "app")])

        #expect(
            request.curlDescription()
                == "curl -X 'GET' -H 'Cookie: ***' -H 'User-Agent: app' 'https://api.example.com/items'"
        )
    }

    @Test func addsFieldsTheRequestLacksAndKeepsItsOwn() throws {
        let request = try request(.get, [("Accept", "application/json")])
        let added = try HTTPHeaders([("accept", "text/html"), ("User-Agent", "app/2.0"), ("X-Trace", "7")])

        #expect(
            request.curlDescription(style: .singleLine, additionalHeaders: added)
                == "curl -X 'GET' -H 'Accept: application/json' -H 'User-Agent: app/2.0' -H 'X-Trace: 7' "
                + "'https://api.example.com/items'"
        )
    }

    @Test func describesHEADWithTheHeadOptionAndNoBody() throws {
        var request = try request(.head, [("User-Agent", "app")])
        request.body = HTTPBody(Data("ignored".utf8))

        #expect(request.curlDescription() == "curl --head -H 'User-Agent: app' 'https://api.example.com/items'")
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch])
    func sendsAnEmptyBodyForMethodsThatExpectOne(method: HTTPMethod) throws {
        let request = try request(method, [("User-Agent", "app")])

        #expect(
            request.curlDescription()
                == "curl -X '\(method.rawValue)' -H 'User-Agent: app' -H 'Content-Type:' --data-raw '' "
                + "'https://api.example.com/items'"
        )
    }

    @Test func sendsNoBodyForAnEmptyDELETE() throws {
        let described = try request(.delete).curlDescription()
        #expect(described == "curl -X 'DELETE' -H 'User-Agent:' 'https://api.example.com/items'")
    }

    @Test func writesABodyStartingWithAtAsRawData() throws {
        var request = try request(.post, [("Content-Type", "text/plain"), ("User-Agent", "app")])
        request.body = HTTPBody(Data("@/etc/passwd".utf8))

        #expect(request.curlDescription().contains("--data-raw '@/etc/passwd'"))
    }

    @Test(arguments: [Data([0xFF, 0xFE, 0x00]), Data("a\0b".utf8)])
    func namesBytesThatCannotBeAnArgument(bytes: Data) throws {
        var request = try request(.post, [("Content-Type", "application/octet-stream"), ("User-Agent", "app")])
        request.body = HTTPBody(bytes)

        #expect(
            request.curlDescription().hasSuffix(
                "--data-binary '<3 bytes of binary data>' 'https://api.example.com/items'"
            )
        )
    }

    @Test func namesAFileBodyWithoutReadingItAndTurnsOffExpectWhenLarge() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("curl-description-\(UUID())").path
        try Data(count: 2048).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var request = try request(.post, [("Content-Type", "application/octet-stream"), ("User-Agent", "app")])
        request.body = try HTTPBody(fileAt: path, offset: 48)

        #expect(
            request.curlDescription()
                == "curl -X 'POST' -H 'Content-Type: application/octet-stream' -H 'User-Agent: app' -H 'Expect:' "
                + "--data-binary '<file body, 2000 bytes>' 'https://api.example.com/items'"
        )
        try request.headers.set(name: "Expect", value: "100-continue")
        #expect(!request.curlDescription().contains("'Expect:'"))
    }

    @Test func turnsOffExpectOnlyAboveTheToolsThreshold() throws {
        var request = try request(.post, [("Content-Type", "text/plain"), ("User-Agent", "app")])
        request.body = HTTPBody(Data(repeating: 0x61, count: 1024))
        #expect(!request.curlDescription().contains("'Expect:'"))
        request.body = HTTPBody(Data(repeating: 0x61, count: 1025))
        #expect(request.curlDescription().contains("-H 'Expect:'"))
    }

    @Test func leavesCompressionToTheRequestThatNegotiatesItItself() throws {
        let request = try request(.get, [("Accept-Encoding", "identity"), ("User-Agent", "app")])

        #expect(
            request.curlDescription(style: .singleLine, decompressesResponse: true)
                == "curl -X 'GET' -H 'Accept-Encoding: identity' -H 'User-Agent: app' 'https://api.example.com/items'"
        )
    }

    @Test func turnsGlobbingOffForBracketsInTheURL() throws {
        let request = HTTPRequest(url: URL(string: "http://[::1]:8080/a")!)

        #expect(request.curlDescription() == "curl --globoff -X 'GET' -H 'User-Agent:' 'http://[::1]:8080/a'")
    }

    @Test func sendsABasicCredentialWithoutASchemeOption() throws {
        var request = try request(.get, [("User-Agent", "app")])
        request.credential = HTTPCredential(user: "ada", password: "pw")

        #expect(
            request.curlDescription(revealingSecrets: true)
                == "curl -X 'GET' -u 'ada:pw' -H 'User-Agent: app' 'https://api.example.com/items'"
        )
    }
}

/// Splits a command the way a POSIX shell does, for the subset the descriptions use: words
/// separated by blanks, single-quoted text, a backslash that escapes the next character outside
/// quotes, and a backslash-newline that joins lines.
enum ShellWords {
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    static func split(_ command: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var characters = command.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if let finished = word { words.append(finished) }
                word = nil
            case "'":
                var quoted = ""
                var closed = false
                while let next = characters.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    quoted.append(next)
                }
                guard closed else { throw Unsupported(description: "an unterminated single quote") }
                word = (word ?? "") + quoted
            case "\\":
                guard let next = characters.next() else { throw Unsupported(description: "a trailing backslash") }
                if next != "\n" { word = (word ?? "") + String(next) }
            case "\"", "$", "`", ";", "&", "|", "<", ">", "(", ")", "*", "?", "#":
                throw Unsupported(description: "an unquoted \(character)")
            default:
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
