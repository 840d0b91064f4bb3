internal import CourierHTTP
internal import CourierRequestCompression
internal import CourierSessionCore
internal import FoundationEssentials

/// How the request body goes on the wire: `-x/--compress` and `--chunked`, as httpie does them.
enum RequestFraming {
    /// `-x` deflates the body (zlib's format, `Content-Encoding: deflate`, as httpie's
    /// `zlib.compressobj()`) when that makes it smaller; `-xx` deflates it whatever the result.
    static func compressed(_ request: HTTPRequest, always: Bool) async throws -> HTTPRequest {
        guard request.body.kind != .empty else { return request }
        let compressor = RequestCompressor(encoding: .deflate, minimumBodySize: 0, duplicateHeaderBehavior: .replace)
        let first = AttemptContext(taskIdentifier: 0, retryCount: 0, redirectCount: 0)
        let deflated = try await compressor.adapt(request, for: first)
        if always { return deflated }
        guard let original = request.body.length, let smaller = deflated.body.length else { return deflated }
        return smaller < original ? deflated : request
    }

    /// `--chunked`: the body is sent with `Transfer-Encoding: chunked` (a body of unknown length).
    static func chunked(_ request: HTTPRequest) -> HTTPRequest {
        guard let bytes = request.body.bytes else { return request }
        var framed = request
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(bytes)
            continuation.finish()
        }
        framed.body = HTTPBody(length: nil, producer: chunks)
        framed.headers.remove(name: "Content-Length")
        return framed
    }
}
