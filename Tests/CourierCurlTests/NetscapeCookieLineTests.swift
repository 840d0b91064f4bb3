import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct NetscapeCookieLineTests {
    @Test func readsAHostOnlySessionCookie() {
        let cookie = NetscapeCookieLine.parse("127.0.0.1\tFALSE\t/\tFALSE\t0\tflavour\toat")
        #expect(cookie == Cookie(name: "flavour", value: "oat", domain: "127.0.0.1"))
        #expect(cookie?.isSessionCookie == true)
    }

    @Test func readsHttpOnlySecureDomainCookieWithExpiry() {
        let cookie = NetscapeCookieLine.parse("#HttpOnly_.example.com\tTRUE\t/api\tTRUE\t1800000000\tsid\ta b\n")
        #expect(
            cookie
                == Cookie(
                    name: "sid",
                    value: "a b",
                    domain: "example.com",
                    path: "/api",
                    expiry: Date(timeIntervalSince1970: 1_800_000_000),
                    isSecure: true,
                    isHTTPOnly: true,
                    isHostOnly: false
                )
        )
    }

    @Test func readsAnEmptyValue() {
        #expect(NetscapeCookieLine.parse("example.com\tFALSE\t/\tFALSE\t0\tempty\t")?.value == "")
        #expect(NetscapeCookieLine.parse("example.com\tFALSE\t/\tFALSE\t0\tempty")?.value == "")
    }

    @Test(arguments: [
        "# Netscape HTTP Cookie File",
        "",
        "example.com\tFALSE\t/\tFALSE\t0",
        "example.com\tMAYBE\t/\tFALSE\t0\tn\tv",
        "example.com\tFALSE\t/\tFALSE\tsoon\tn\tv",
        "\tFALSE\t/\tFALSE\t0\tn\tv",
        "example.com\tFALSE\t/\tFALSE\t0\t\tv",
        "example.com\tFALSE\t/\tFALSE\t0\tn\tv\textra",
    ])
    func rejectsLinesThatAreNoCookie(line: String) {
        #expect(NetscapeCookieLine.parse(line) == nil)
    }

    @Test func writesWhatLibcurlWrites() throws {
        let session = Cookie(name: "flavour", value: "oat", domain: "127.0.0.1")
        #expect(try NetscapeCookieLine.format(session) == "127.0.0.1\tFALSE\t/\tFALSE\t0\tflavour\toat")
        let full = Cookie(
            name: "sid",
            value: "1",
            domain: "example.com",
            path: "/api",
            expiry: Date(timeIntervalSince1970: 1_800_000_000.9),
            isSecure: true,
            isHTTPOnly: true,
            isHostOnly: false,
            sameSite: .strict
        )
        let line = try NetscapeCookieLine.format(full)
        #expect(line == "#HttpOnly_.example.com\tTRUE\t/api\tTRUE\t1800000000\tsid\t1")
        var roundTripped = full
        roundTripped.expiry = Date(timeIntervalSince1970: 1_800_000_000)
        roundTripped.sameSite = nil  // the format has no field for it
        #expect(NetscapeCookieLine.parse(line) == roundTripped)
    }

    @Test func writesAnExpiryBeforeTheEpochAsExpiredNotSession() throws {
        let cookie = Cookie(name: "a", value: "1", domain: "example.com", expiry: .distantPast)
        #expect(try NetscapeCookieLine.format(cookie) == "example.com\tFALSE\t/\tFALSE\t1\ta\t1")
    }

    @Test(arguments: [
        Cookie(name: "", value: "1", domain: "example.com"),
        Cookie(name: "a", value: "1\t2", domain: "example.com"),
        Cookie(name: "a", value: "1\r\nSet-Cookie: b=2", domain: "example.com"),
        Cookie(name: "a", value: "1", domain: ""),
        Cookie(name: "a", value: "1", domain: "#HttpOnly_x"),
        Cookie(name: "a", value: "1", domain: "example.com", path: "docs"),
    ])
    func refusesCookiesTheFormatCannotCarry(cookie: Cookie) {
        let error = #expect(throws: TransportError.self) { try NetscapeCookieLine.format(cookie) }
        #expect(error?.category == .invalidRequest)
    }
}
