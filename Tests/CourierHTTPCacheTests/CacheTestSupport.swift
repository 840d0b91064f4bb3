import CourierHTTP
import CourierHTTPCache
import Foundation

/// A response head with `fields`.
func response(_ status: Int = 200, _ fields: [(String, String)]) throws -> HTTPResponse {
    HTTPResponse(status: HTTPStatus(code: status), headers: try HTTPHeaders(fields))
}

/// The HTTP-date `seconds` after `date`.
func httpDate(_ date: Date, plus seconds: Double = 0) -> String {
    HTTPDate.format(date.addingTimeInterval(seconds))
}
