public import CourierHTTP
public import FoundationEssentials

extension HTTPRequestSerializer {
    /// Builds a streaming multipart form request: AFNetworking's
    /// `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:error:`.
    ///
    /// The request gets the serializer's default headers and settings. `parameters` become simple
    /// form-data parts first (flattened like a query string, names unescaped), then `constructingBody`
    /// appends its parts. The body streams: files are read only while the request is sent, and the
    /// exact `Content-Length` is known up front. A form with no parts leaves the request as the form
    /// serializer makes it for no parameters (form content type, empty body), as AFNetworking does.
    ///
    /// ```swift
    /// let request = try await HTTPRequestSerializer().multipartFormRequest(
    ///     url: URL(string: "https://api.example.com/photos")!,
    ///     parameters: ["album": "Holiday"]
    /// ) { form in
    ///     try form.appendFile(atPath: "/var/tmp/beach.jpg", name: "photo")
    /// }
    /// ```
    /// - Parameters:
    ///   - method: A method with a body; `POST` by default.
    ///   - url: The absolute URL.
    ///   - parameters: Parameters sent as form-data parts before the others.
    ///   - boundary: The boundary; a fresh AFNetworking-style one when `nil`.
    ///   - constructingBody: Appends the form's other parts.
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` for `GET`
    ///   or `HEAD` (AFNetworking asserts) or a bad boundary; the appenders' errors otherwise; any
    ///   other error of `constructingBody` as ``SerializationError/Code/multipartStreamFailed`` with it
    ///   underneath.
    public func multipartFormRequest(
        method: HTTPMethod = .post,
        url: URL,
        parameters: Parameters? = nil,
        boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) async throws(SerializationError) -> HTTPRequest {
        let name = method.rawValue.uppercased()
        guard name != "GET" && name != "HEAD" else {
            throw SerializationError(
                code: .invalidRequest,
                domain: .request,
                urlErrorCode: -1000,
                localizedDescription: "A multipart form cannot be sent with \(method.rawValue).",
                failureReason: "GET and HEAD requests carry no body.",
                failingURL: url
            )
        }
        var request = try serialize(makeRequest(method: method, url: url), parameters: nil)
        var form =
            try boundary.map { (boundary) throws(SerializationError) in try MultipartFormData(boundary: boundary) }
            ?? MultipartFormData()
        if let parameters { try form.appendParts(from: parameters) }
        do {
            try constructingBody(&form)
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError(
                code: .multipartStreamFailed,
                domain: .request,
                urlErrorCode: 0,
                localizedDescription: "The multipart form could not be built.",
                failureReason: "\(error)",
                failingURL: url,
                underlying: error
            )
        }
        try await form.apply(to: &request)
        return request
    }
}
