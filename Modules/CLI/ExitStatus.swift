internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierTransport
internal import FoundationEssentials

/// httpie's exit statuses: 0 done, 1 an error (bad arguments included), 2 timed out, 3/4/5 a
/// 3xx/4xx/5xx response with `--check-status` (or a download), 6 too many redirects.
enum ExitStatus {
    static let success: Int32 = 0
    static let error: Int32 = 1
    static let timedOut: Int32 = 2
    static let tooManyRedirects: Int32 = 6

    static func of(_ error: SessionError) -> Int32 {
        switch error.kind {
        case .deadlineExceeded, .transport(.timedOut): timedOut
        case .redirect(.tooManyRedirects): tooManyRedirects
        default: Self.error
        }
    }

    /// A 3xx counts only when redirects are not followed: a followed chain that ends in a 3xx (a
    /// `304`) is the answer.
    static func of(status code: Int, follows: Bool) -> Int32 {
        switch code {
        case 300..<400: follows ? success : 3
        case 400..<500: 4
        case 500..<600: 5
        default: success
        }
    }
}
