public import CourierHTTP
internal import FoundationEssentials

extension JSONRequestSerializer: EncodableRequestSerializing {
    /// Encodes `value` as the JSON body (Alamofire's `JSONParameterEncoder`), or, for URI methods,
    /// as a query string with the base's ``HTTPRequestSerializer/formEncoder``, as AFNetworking sends
    /// no JSON for `GET`, `HEAD` and `DELETE`.
    ///
    /// The top level may be an object or an array; a scalar throws AFNetworking's `-1016`.
    ///
    /// ```swift
    /// struct Tag: Encodable { let name: String }
    /// let request = HTTPRequest(method: .post, url: URL(string: "https://example.com/tags")!)
    /// let sent = try JSONRequestSerializer().serialize(request, encoding: [Tag(name: "a"), Tag(name: "b")])
    /// // body [{"name":"a"},{"name":"b"}], Content-Type: application/json
    /// ```
    /// - Throws: ``SerializationError/Code/invalidJSONParameters`` (-1016) for a body that is not a
    ///   JSON array or object; ``SerializationError/Code/formEncodingFailed`` for a query string.
    public func serialize(_ request: HTTPRequest, encoding value: some Encodable) throws(SerializationError)
        -> HTTPRequest
    {
        try base.serialize(request, encoding: value, contentType: Self.contentTypeField) {
            () throws(SerializationError) in
            try Self.encode(value, options: writingOptions)
        }
    }

    /// Serializes `request` with a JSON body whose top level is an array or an object: the
    /// ``Parameters`` path for any JSON AFNetworking accepts, `[…]` included.
    ///
    /// For URI methods a ``ParameterValue/dictionary(_:)`` becomes the query string as with
    /// ``serialize(_:parameters:)``; any other value has no query-string form and throws.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .post, url: URL(string: "https://example.com/batch")!)
    /// let sent = try JSONRequestSerializer().serialize(request, jsonObject: [["id": 1], ["id": 2]])
    /// // body [{"id":1},{"id":2}]
    /// ```
    /// - Throws: ``SerializationError/Code/invalidJSONParameters`` (-1016, AFNetworking's failure
    ///   reason) for a scalar top level or a value JSON cannot hold;
    ///   ``SerializationError/Code/formEncodingFailed`` for a non-dictionary with a URI method.
    public func serialize(_ request: HTTPRequest, jsonObject: ParameterValue) throws(SerializationError)
        -> HTTPRequest
    {
        if case .dictionary(let parameters) = jsonObject {
            return try serialize(request, parameters: parameters)
        }
        return try base.serialize(
            request,
            query: { _ throws(SerializationError) in
                throw .formEncodingFailed("A query string needs a dictionary at the top level.")
            },
            contentType: Self.contentTypeField,
            body: { () throws(SerializationError) in
                try Self.encode(EncodableParameterValue(value: jsonObject, format: .json), options: writingOptions)
            }
        )
    }

    /// Builds a request whose JSON body is `jsonObject` (see ``serialize(_:jsonObject:)``).
    ///
    /// ```swift
    /// let request = try JSONRequestSerializer().request(
    ///     method: .put,
    ///     urlString: "https://example.com/order",
    ///     jsonObject: [3, 1, 2]
    /// )
    /// ```
    /// - Throws: ``SerializationError/Code/invalidRequest`` for a bad URL string; otherwise as
    ///   ``serialize(_:jsonObject:)``.
    public func request(
        method: HTTPMethod,
        urlString: String,
        jsonObject: ParameterValue
    ) throws(SerializationError) -> HTTPRequest {
        try serialize(makeRequest(method: method, url: httpURL(urlString)), jsonObject: jsonObject)
    }
}
