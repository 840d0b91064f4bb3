package import CourierHTTP

extension HTTPRequest {
    /// Whether a transport sends a body for this request: any body but on `HEAD`, and an empty one
    /// (`Content-Length: 0`) for `POST`, `PUT` and `PATCH`, as libcurl does. The transport and the
    /// cURL description share it, so that the description matches what goes on the wire.
    package var sendsBody: Bool {
        if method == .head { return false }
        if body.kind != .empty { return true }
        return method == .post || method == .put || method == .patch
    }
}
