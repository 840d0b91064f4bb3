import CourierHTTP
import CourierHTTPCache
import CourierLocking
import Foundation

/// A clock the test moves by hand: the cache's notion of "now".
final class ManualClock: Sendable {
    private let instant: Lock<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { instant = Lock(start) }

    var now: Date { instant.withLock { $0 } }

    func advance(seconds: Double) { instant.withLock { $0 += seconds } }

    var read: @Sendable () -> Date { { [self] in now } }
}

/// A response head with `fields`.
func response(_ status: Int = 200, _ fields: [(String, String)]) throws -> HTTPResponse {
    HTTPResponse(status: HTTPStatus(code: status), headers: try HTTPHeaders(fields))
}

/// The HTTP-date `seconds` after `date`.
func httpDate(_ date: Date, plus seconds: Double = 0) -> String {
    HTTPDate.format(date.addingTimeInterval(seconds))
}
