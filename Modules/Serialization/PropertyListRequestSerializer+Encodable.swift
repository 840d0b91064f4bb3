public import CourierHTTP
internal import FoundationEssentials

extension PropertyListRequestSerializer: EncodableRequestSerializing {
    /// Encodes `value` as the property-list body, or, for URI methods, as a query string with the
    /// base's ``HTTPRequestSerializer/formEncoder``.
    ///
    /// ```swift
    /// struct Sync: Encodable { let since: Int; let device: String }
    /// let request = HTTPRequest(method: .post, url: URL(string: "https://example.com/sync")!)
    /// let sent = try PropertyListRequestSerializer().serialize(request, encoding: Sync(since: 7, device: "a"))
    /// // Content-Type: application/x-plist, an XML property list body
    /// ```
    /// - Throws: ``SerializationError/Code/invalidPropertyListParameters`` when the value has no
    ///   property-list form; ``SerializationError/Code/formEncodingFailed`` for a query string.
    public func serialize(_ request: HTTPRequest, encoding value: some Encodable) throws(SerializationError)
        -> HTTPRequest
    {
        try base.serialize(request, encoding: value, contentType: Self.contentTypeField) {
            () throws(SerializationError) in
            try Self.encode(value, format: format)
        }
    }
}
