internal import CourierHTTP
internal import FoundationEssentials

/// Writes the opening handshake's request head in HTTP/1.1 (RFC 9112 §3 and §5): the request line
/// with the origin-form target, then one line per header field, then the empty line.
///
/// The handshake request is a GET with no body (RFC 6455 §4.1), so no framing fields are written.
/// The fields were checked for CR, LF and NUL when they were made (`HTTPHeaders.Field`), so they
/// cannot smuggle a line into the head.
enum HandshakeRequestHead {
    /// The request head's bytes.
    /// - Parameter request: The handshake request (an `http` or `https` URL).
    static func bytes(for request: HTTPRequest) -> [UInt8] {
        var head = "GET \(target(of: request.url)) HTTP/1.1\r\n"
        for field in request.headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// The origin-form request target (RFC 9112 §3.2.1): the path, `/` when it is empty, and the query.
    static func target(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath
        var target = path.isEmpty ? "/" : path
        if let query = components.percentEncodedQuery { target += "?" + query }
        return target
    }
}
