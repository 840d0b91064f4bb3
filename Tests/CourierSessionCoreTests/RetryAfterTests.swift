import CourierHTTP
import CourierSessionCore
import FoundationEssentials
import Testing

@Suite struct RetryAfterTests {
    /// Wed, 21 Oct 2015 07:28:00 GMT.
    static let now = Date(timeIntervalSince1970: 1_445_412_480)

    func delay(_ value: String?, now: Date = now) throws -> Duration? {
        let headers = try value.map { try HTTPHeaders([("Retry-After", $0)]) } ?? HTTPHeaders()
        return RetryAfter.delay(in: HTTPResponse(status: HTTPStatus(code: 503), headers: headers), now: now)
    }

    @Test func delaySecondsAreReadAsTheyAre() throws {
        #expect(try delay("120") == .seconds(120))
        #expect(try delay(" 0\t") == .zero)
    }

    @Test(arguments: [
        "Wed, 21 Oct 2015 07:28:30 GMT",  // IMF-fixdate
        "Wednesday, 21-Oct-15 07:28:30 GMT",  // RFC 850
        "Wed Oct 21 07:28:30 2015",  // asctime
    ])
    func aDateIsMeasuredFromTheGivenNow(value: String) throws {
        #expect(try delay(value) == .seconds(30))
        #expect(try delay(value, now: Self.now.addingTimeInterval(29.75)) == .milliseconds(250))
    }

    @Test func aDateInThePastIsAZeroDelay() throws {
        #expect(try delay("Wed, 21 Oct 2015 07:27:00 GMT") == .zero)
    }

    @Test(arguments: [nil, "", "soon", "-5", "1.5", "99999999999999999999"])
    func anAbsentOrUnreadableFieldIsNoDelay(value: String?) throws {
        #expect(try delay(value) == nil)
    }
}
