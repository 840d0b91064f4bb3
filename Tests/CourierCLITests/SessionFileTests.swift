import Foundation
import Testing

@testable import CourierCLI

/// httpie 3.2's session JSON, read and written; the older dictionary layouts read too.
@Suite struct SessionFileTests {
    @Test func httpiesCurrentLayoutRoundTrips() throws {
        let json = """
            {"__meta__": {"about": "HTTPie session file", "help": "https://httpie.io/docs#sessions", "httpie": "3.2.4"},
             "auth": {"raw_auth": "ann:pw", "type": "basic"},
             "cookies": [{"domain": "127.0.0.1", "expires": null, "name": "a", "path": "/", "secure": false, "value": "1"}],
             "headers": [{"name": "X-Foo", "value": "bar"}]}
            """
        let file = try JSONDecoder().decode(SessionFile.self, from: Data(json.utf8))
        #expect(file.auth == SessionFile.Auth(type: "basic", rawAuth: "ann:pw"))
        #expect(file.headers == [SessionFile.Header(name: "X-Foo", value: "bar")])
        #expect(file.cookies.first?.domain == "127.0.0.1" && file.cookies.first?.expires == nil)
        let again = try JSONDecoder().decode(SessionFile.self, from: JSONEncoder().encode(file))
        #expect(again == file)
        let written = String(decoding: try JSONEncoder().encode(file), as: UTF8.self)
        #expect(written.contains("\"expires\":null"))
    }

    @Test func olderDictionariesAndUsernamePasswordAreRead() throws {
        let json = """
            {"auth": {"type": "digest", "username": "ann", "password": "pw"},
             "cookies": {"sid": {"value": "42", "path": "/", "expires": 1900000000}},
             "headers": {"X-Old": "yes"}}
            """
        let file = try JSONDecoder().decode(SessionFile.self, from: Data(json.utf8))
        #expect(file.auth == SessionFile.Auth(type: "digest", rawAuth: "ann:pw"))
        #expect(file.headers == [SessionFile.Header(name: "X-Old", value: "yes")])
        #expect(file.cookies.first?.name == "sid" && file.cookies.first?.expires == 1_900_000_000)
    }

    @Test func noAuthIsWrittenAsHttpieWritesIt() throws {
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(SessionFile())) as? [String: Any]
        let auth = written?["auth"] as? [String: Any]
        #expect(auth?.keys.sorted() == ["password", "type", "username"])
        #expect(auth?["type"] is NSNull)
    }

    @Test func namedSessionsLiveUnderXDGConfigPerHostAndPort() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/x"))
        let environment = ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/ann"]
        #expect(
            try SessionLocation.path("api", url: url, hostHeader: nil, environment: environment)
                == "/cfg/courier/sessions/127.0.0.1_8080/api.json"
        )
        #expect(
            try SessionLocation.path("api", url: url, hostHeader: nil, environment: ["HOME": "/home/ann"])
                == "/home/ann/.config/courier/sessions/127.0.0.1_8080/api.json"
        )
        #expect(
            try SessionLocation.path("~/s.json", url: url, hostHeader: nil, environment: environment)
                == "/home/ann/s.json"
        )
        #expect(throws: UsageError.self) {
            try SessionLocation.path("a b", url: url, hostHeader: nil, environment: environment)
        }
    }
}
