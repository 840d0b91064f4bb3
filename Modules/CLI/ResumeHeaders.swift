internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import FoundationEssentials

/// Puts the command line's headers back on a resumed download.
///
/// The session resumes from `ResumeData`, which names only the URL, so its request is a bare `GET`;
/// this adapter adds the headers of the original request (`Accept-Encoding: identity`, the
/// `Header:value` items, credentials) that the resumed request lacks, on the same origin only, so a
/// redirect to another host never receives them.
struct ResumeHeaders: RequestInterceptor {
    let headers: HTTPHeaders
    let origin: URL

    func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        guard request.url.scheme == origin.scheme, request.url.host == origin.host, request.url.port == origin.port
        else { return request }
        var adapted = request
        adapted.headers.addMissing(from: headers)
        return adapted
    }
}
