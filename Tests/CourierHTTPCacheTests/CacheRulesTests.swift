import CourierHTTP
import Foundation
import Testing

@testable import CourierHTTPCache

@Suite struct CacheRulesTests {
    private let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    // MARK: Freshness lifetime (RFC 9111 §4.2.1)

    @Test func maxAgeWinsOverExpiresAndSharedMaxAgeIsIgnored() throws {
        let head = try response(
            200,
            [
                ("Cache-Control", "s-maxage=900, max-age=60"), ("Date", httpDate(epoch)),
                ("Expires", httpDate(epoch, plus: 3600)),
            ]
        )
        #expect(Freshness.lifetime(of: head, responseTime: epoch) == 60)
    }

    @Test func expiresCountsFromTheDateField() throws {
        // The server's clock is 100 s ahead of ours: Expires - Date is what counts, not Expires - now.
        let head = try response(200, [("Date", httpDate(epoch, plus: 100)), ("Expires", httpDate(epoch, plus: 400))])
        #expect(Freshness.lifetime(of: head, responseTime: epoch) == 300)
    }

    @Test(arguments: ["0", "yesterday", ""])
    func anInvalidExpiresMeansAlreadyExpired(value: String) throws {
        let head = try response(
            200,
            [("Date", httpDate(epoch)), ("Expires", value), ("Last-Modified", httpDate(epoch, plus: -86_400))]
        )
        #expect(Freshness.lifetime(of: head, responseTime: epoch) == 0)
    }

    @Test func aMalformedMaxAgeMeansStale() throws {
        let head = try response(200, [("Cache-Control", "max-age=soon"), ("Expires", httpDate(epoch, plus: 600))])
        #expect(Freshness.lifetime(of: head, responseTime: epoch) == 0)
    }

    @Test func theHeuristicIsATenthOfTheTimeSinceLastModified() throws {
        let head = try response(
            200,
            [("Date", httpDate(epoch)), ("Last-Modified", httpDate(epoch, plus: -10 * 86_400))]
        )
        #expect(Freshness.lifetime(of: head, responseTime: epoch) == 86_400)
    }

    @Test func theHeuristicAppliesOnlyToHeuristicallyCacheableStatuses() throws {
        let modified = ("Last-Modified", httpDate(epoch, plus: -10 * 86_400))
        #expect(
            Freshness.lifetime(of: try response(404, [("Date", httpDate(epoch)), modified]), responseTime: epoch)
                == 86_400
        )
        #expect(
            Freshness.lifetime(of: try response(500, [("Date", httpDate(epoch)), modified]), responseTime: epoch) == 0
        )
        #expect(
            Freshness.lifetime(of: try response(302, [("Date", httpDate(epoch)), modified]), responseTime: epoch) == 0
        )
    }

    // MARK: Age (RFC 9111 §4.2.3)

    @Test func theAgeAddsTheResponseDelayToTheAgeFieldWhenThatIsLarger() throws {
        // request_time 1000, response_time 1004, Date 1001 (apparent_age 3), Age 10:
        // corrected_age_value = 10 + 4 = 14 > 3; six seconds resident: 20.
        let entry = HTTPCacheEntry(
            response: try response(200, [("Date", httpDate(epoch, plus: 1001)), ("Age", "10")]),
            body: Data(),
            requestTime: epoch.addingTimeInterval(1000),
            responseTime: epoch.addingTimeInterval(1004)
        )
        #expect(Freshness.currentAge(of: entry, now: epoch.addingTimeInterval(1010)) == 20)
    }

    @Test func theAgeUsesTheApparentAgeWhenTheDateIsOlder() throws {
        // Date 990, no Age: apparent_age = 1004 - 990 = 14 > corrected_age_value 4.
        let entry = HTTPCacheEntry(
            response: try response(200, [("Date", httpDate(epoch, plus: 990))]),
            body: Data(),
            requestTime: epoch.addingTimeInterval(1000),
            responseTime: epoch.addingTimeInterval(1004)
        )
        #expect(Freshness.currentAge(of: entry, now: epoch.addingTimeInterval(1004)) == 14)
    }

    @Test func aDateFromTheFutureGivesNoNegativeAge() throws {
        let entry = HTTPCacheEntry(
            response: try response(200, [("Date", httpDate(epoch, plus: 500)), ("Age", "bogus")]),
            body: Data(),
            requestTime: epoch,
            responseTime: epoch
        )
        #expect(Freshness.currentAge(of: entry, now: epoch.addingTimeInterval(7)) == 7)
    }

    // MARK: Cache-Control parsing

    @Test func directivesAreCaseInsensitiveQuotedAndFromEveryLine() throws {
        let control = CacheControl(
            try HTTPHeaders([
                ("Cache-Control", "Private=\"Set-Cookie, X-A\", MAX-AGE=5"), ("Cache-Control", "no-cache"),
            ])
        )
        #expect(control.has("private"))
        #expect(control.has("no-cache"))
        #expect(control.seconds("max-age") == 5)
        #expect(control.directives["private"] == .some("Set-Cookie, X-A"))
        #expect(!control.has("x-a"))
    }

    /// Found by the `http-cache` fuzz target: a directive with no name (`=`) crashed the parser.
    @Test(arguments: ["=", "=5", " = ", "max-age=5, =, no-store"])
    func aDirectiveWithoutANameIsSkipped(value: String) throws {
        let control = CacheControl(try HTTPHeaders([("Cache-Control", value)]))
        #expect(control.directives[""] == nil)
        #expect(control.seconds("max-age") == (value.contains("max-age=5") ? 5 : nil))
        #expect(control.has("no-store") == value.contains("no-store"))
    }

    // MARK: Vary (RFC 9111 §4.1)

    @Test func varyMatchesTheNamedFieldsAfterCombiningLines() throws {
        let stored = try response(200, [("Vary", "Accept-Language, accept"), ("Vary", "X-Absent")])
        var first = HTTPRequest(url: URL(string: "https://example.com/")!)
        try first.headers.add(name: "Accept-Language", value: "fr,  en")
        try first.headers.add(name: "Accept", value: "text/html")
        let entry = HTTPCacheEntry(
            response: stored,
            body: Data(),
            requestTime: epoch,
            responseTime: epoch,
            varyingRequestFields: VaryMatching.fields(of: first, for: stored)
        )
        #expect(entry.varyingRequestFields.map(\.name) == ["Accept-Language", "accept", "X-Absent"])
        #expect(entry.varyingRequestFields.map(\.value) == ["fr, en", "text/html", nil])

        var same = HTTPRequest(url: first.url)
        try same.headers.add(name: "accept-language", value: "fr")
        try same.headers.add(name: "Accept-Language", value: "en")
        try same.headers.add(name: "ACCEPT", value: "text/html")
        #expect(VaryMatching.matches(entry, same))

        var other = same
        try other.headers.set(name: "Accept", value: "application/json")
        #expect(!VaryMatching.matches(entry, other))

        var extra = same
        try extra.headers.add(name: "X-Absent", value: "1")
        #expect(!VaryMatching.matches(entry, extra))
    }

    @Test func varyStarNeverMatches() throws {
        let stored = try response(200, [("Vary", "*")])
        let request = HTTPRequest(url: URL(string: "https://example.com/")!)
        let entry = HTTPCacheEntry(
            response: stored,
            body: Data(),
            requestTime: epoch,
            responseTime: epoch,
            varyingRequestFields: VaryMatching.fields(of: request, for: stored)
        )
        #expect(!VaryMatching.matches(entry, request))
    }

    // MARK: 304 merge (RFC 9111 §3.2, §4.3.4)

    @Test func aNotModifiedUpdatesTheStoredFieldsButNotTheBodysOwn() throws {
        let stored = try response(
            200,
            [
                ("Content-Type", "text/plain"), ("Content-Length", "5"), ("Content-Encoding", "gzip"),
                ("ETag", "\"v1\""), ("Cache-Control", "max-age=10"), ("X-Old", "a"), ("X-Old", "b"),
            ]
        )
        let notModified = try response(
            304,
            [
                ("ETag", "\"v1\""), ("Cache-Control", "max-age=600"), ("Content-Length", "0"), ("X-Old", "c"),
                ("Connection", "close, X-Hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"),
            ]
        )
        #expect(NotModifiedMerge.selects(notModified, stored))
        let merged = NotModifiedMerge.merge(notModified, into: stored)
        #expect(merged.status.code == 200)
        #expect(merged.headers["Content-Length"] == "5")
        #expect(merged.headers["Content-Encoding"] == "gzip")
        #expect(merged.headers["Cache-Control"] == "max-age=600")
        #expect(merged.headers.values(for: "X-Old") == ["c"])
        #expect(!merged.headers.contains(name: "X-Hop"))
        #expect(!merged.headers.contains(name: "Keep-Alive"))
        #expect(!merged.headers.contains(name: "Connection"))
    }

    @Test func aNotModifiedSelectsByEntityTagThenByLastModified() throws {
        let stored = try response(200, [("ETag", "W/\"v1\""), ("Last-Modified", httpDate(epoch))])
        #expect(NotModifiedMerge.selects(try response(304, [("ETag", "\"v1\"")]), stored))
        #expect(!NotModifiedMerge.selects(try response(304, [("ETag", "\"v2\"")]), stored))
        #expect(NotModifiedMerge.selects(try response(304, [("Last-Modified", httpDate(epoch))]), stored))
        #expect(!NotModifiedMerge.selects(try response(304, [("Last-Modified", httpDate(epoch, plus: 1))]), stored))
        #expect(NotModifiedMerge.selects(try response(304, []), stored))
    }

    // MARK: HTTP-date (RFC 9110 §5.6.7)

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func theThreeDateFormsAreRead(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func datesAreWrittenAsIMFFixdate() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
    }

    /// Found by the `http-cache` fuzz target: a year before 1000 was written with fewer than four
    /// digits, which did not read back.
    @Test func anEarlyYearIsWrittenWithFourDigitsAndReadsBack() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 0532 08:49:38 GMT"))
        #expect(HTTPDate.format(date) == "Thu, 06 Nov 0532 08:49:38 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
    }
}
