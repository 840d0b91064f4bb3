public import CourierHTTP
internal import FoundationEssentials

extension HTTPRequestSerializer: EncodableRequestSerializing {
    /// Encodes `value` with ``formEncoder``: a query string for URI methods, a form body otherwise
    /// (Alamofire's `URLEncodedFormParameterEncoder` with its method-dependent destination).
    ///
    /// The rules are those of ``serialize(_:parameters:)``: an empty query appends nothing, a body
    /// method always gets a body (empty for a value with no fields) and
    /// `Content-Type: application/x-www-form-urlencoded` unless already set. Alamofire adds
    /// `; charset=utf-8`; AFNetworking, which Courier follows, does not.
    ///
    /// ```swift
    /// struct Login: Encodable { let user: String; let remember: Bool }
    /// let request = HTTPRequest(method: .post, url: URL(string: "https://example.com/login")!)
    /// let sent = try HTTPRequestSerializer().serialize(request, encoding: Login(user: "jane", remember: true))
    /// // body "remember=1&user=jane"
    /// ```
    /// - Throws: ``SerializationError/Code/formEncodingFailed`` when the value is not keyed or its
    ///   encoding fails.
    public func serialize(_ request: HTTPRequest, encoding value: some Encodable) throws(SerializationError)
        -> HTTPRequest
    {
        try serialize(request, encoding: value, contentType: Self.formContentTypeField) {
            () throws(SerializationError) in
            Data(try formEncoder.encodeBytes(value))
        }
    }
}
