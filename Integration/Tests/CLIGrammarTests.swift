import Foundation
import Testing

/// httpie 3's request syntax as `courier` reads it: nested JSON paths, repeated keys, escapes,
/// file parts with a media type, and items read from files. The grammar is checked offline (the
/// body `--offline --print=B` prints) and then against httpbin's echo.
@Suite struct CLIGrammarTests {
    static var ready: Bool { CLIProcess.binary != nil }
    static var httpbinReady: Bool { ready && CurlTestServers.hasHTTPBin }

    private func offlineBody(_ items: [String], options: [String] = []) async throws -> CLIResult {
        try await CLIProcess.run(["--offline", "--print=B"] + options + ["example.test/post"] + items)
    }

    private func temporaryFile(_ name: String, _ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-grammar-\(UUID().uuidString)-\(name)").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        .enabled(if: ready, "no courier binary"),
        arguments: [
            // Objects and arrays made on the way, in the order first given.
            (
                [
                    "platform[name]=HTTPie", "platform[about][stars]:=54000", "platform[apps][]=Terminal",
                    "platform[apps][]=Desktop",
                ],
                #"{"platform": {"name": "HTTPie", "about": {"stars": 54000}, "apps": ["Terminal", "Desktop"]}}"#
            ),
            // Indexes, with the gaps filled with null, mixed with appends.
            (
                ["s[p][]=T", "s[p][1]=D", "s[p][3]=M"],
                #"{"s": {"p": ["T", "D", null, "M"]}}"#
            ),
            (["a[1]=x", "a[0]=y"], #"{"a": ["y", "x"]}"#),
            // Appending to a raw array.
            (["x:=[\"T\", \"D\"]", "x[]=W"], #"{"x": ["T", "D", "W"]}"#),
            // A top-level array, and objects in it.
            (["[]:=1", "[]:=2"], "[1, 2]"),
            (["[0][type]=p", "[1][type]=d"], #"[{"type": "p"}, {"type": "d"}]"#),
            // Escapes: brackets, a backslash, a number that is a name.
            (["foo\\[bar\\]:=1", "baz[\\[]:=2", "baz[\\]]:=3"], #"{"foo[bar]": 1, "baz": {"[": 2, "]": 3}}"#),
            (["backslash[\\\\]:=1"], #"{"backslash": {"\\": 1}}"#),
            (["object[\\1]=s", "array[1]=i"], #"{"object": {"1": "s"}, "array": [null, "i"]}"#),
            // A repeated key keeps its last value, as in httpie (with a warning here).
            (["a=1", "a=2", "b=3"], #"{"a": "2", "b": "3"}"#),
            // The older separators are unchanged.
            (["a\\=b=c", "n:=36", "t:=true"], #"{"a=b": "c", "n": 36, "t": true}"#),
        ]
    )
    func nestedJSONBodies(items: [String], body: String) async throws {
        let result = try await offlineBody(items)
        #expect(result.status == 0, "\(items): \(result.standardError)")
        #expect(result.outputText == body, "\(items)")
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func repeatedKeysWarnInJSONAndRepeatInForms() async throws {
        let json = try await offlineBody(["a=1", "a=2"])
        #expect(json.standardError.contains("courier: warning: a was given more than once"), "\(json.standardError)")
        let form = try await offlineBody(["a=1", "a=2"], options: ["--form"])
        #expect(form.outputText == "a=1&a=2")
        #expect(form.standardError.isEmpty)
        // A form takes a raw string, number or boolean as its text, and a path as a plain name.
        let primitives = try await offlineBody(["n:=3", "s:=\"t\"", "a[b]=x"], options: ["--form"])
        #expect(primitives.outputText == "n=3&s=t&a%5Bb%5D=x", "\(primitives.outputText)")
    }

    @Test(
        .enabled(if: ready, "no courier binary"),
        arguments: [
            (
                ["foo[bar]=OK", "foo[baz][quux=FAIL"],
                "courier: the JSON path \"foo[baz][quux\" is malformed: expected ']'"
            ),
            (["a=x", "a[b]=y"], "courier: cannot set a[b]: a is a string, and the member \"b\" needs an object"),
            (["a[]=x", "a[k]=y"], "courier: cannot set a[k]: a is an array, and the member \"k\" needs an object"),
            (["a[b]=x", "a[0]=y"], "courier: cannot set a[0]: a is an object, and the index [0] needs an array"),
            (["a[-1]=x"], "courier: negative array indexes are not supported"),
            (["a[b]c=x"], "courier: the JSON path \"a[b]c\" is malformed: expected '['"),
            (["o:={}"], "courier: a form field cannot hold the JSON \"{}\""),
        ]
    )
    func malformedPathsAreUsageErrors(items: [String], message: String) async throws {
        let options = items == ["o:={}"] ? ["--form"] : []
        let result = try await offlineBody(items, options: options)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func itemsReadFromFiles() async throws {
        let token = try temporaryFile("token", "secret-token\n")
        let query = try temporaryFile("query", "a b")
        defer {
            try? FileManager.default.removeItem(atPath: token)
            try? FileManager.default.removeItem(atPath: query)
        }
        let result = try await CLIProcess.run([
            "--offline", "--print=H", "example.test/x", "X-Token:@\(token)", "q==@\(query)",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.hasPrefix("GET /x?q=a%20b HTTP/1.1\n"), "\(result.outputText)")
        #expect(result.outputText.contains("\nX-Token: secret-token\n"), "the file's final newline is dropped")
    }

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func nestedJSONAndTypedPartsReachHttpbin() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let url = base.adding("/anything").absoluteString
        let result = try await CLIProcess.run([
            "--no-proxy", "POST", url, "user[name]=ann", "user[tags][]=x", "user[tags][]=y", "user[age]:=7",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let echo = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let user = try #require((echo["json"] as? [String: Any])?["user"] as? [String: Any], "\(result.outputText)")
        #expect(user["name"] as? String == "ann")
        #expect(user["tags"] as? [String] == ["x", "y"])
        #expect(user["age"] as? Int == 7)

        // Bytes that are not UTF-8, so that httpbin shows the part as a data: URL with its type.
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).bin")
        try Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE]).write(to: part)
        defer { try? FileManager.default.removeItem(at: part) }
        let sent = try await CLIProcess.run(["--no-proxy", "--form", url, "photo@\(part.path);type=image/png"])
        #expect(sent.status == 0, "\(sent.standardError)")
        let files = try #require(
            (try JSONSerialization.jsonObject(with: sent.standardOutput) as? [String: Any])?["files"] as? [String: Any]
        )
        // httpbin shows a non-text part as a data: URL that names its type.
        #expect(files["photo"] as? String == "data:image/png;base64,iVBOR//+", "\(files)")
    }
}
