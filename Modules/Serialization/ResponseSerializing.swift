public import CourierHTTP
public import FoundationEssentials

/// Turns a response and its body into a value, AFNetworking's `AFURLResponseSerialization`.
///
/// AFNetworking returns an object *and* an error: a 404 whose body is JSON still yields the parsed
/// JSON, with the status error alongside. A throwing function cannot say that, so the requirement
/// returns a ``SerializedResponse`` that carries both; ``serialize(response:data:request:)`` is the
/// throwing shortcut for callers that want the value only when nothing went wrong.
///
/// ```swift
/// let serializer = JSONResponseSerializer()
/// let outcome = serializer.serializedResponse(response: response, data: body, request: request)
/// if let error = outcome.error { log(error) }  // "Request failed: not found (404)"
/// if let json = outcome.value { show(json) }    // the error page's JSON, still parsed
///
/// let value = try serializer.serialize(response: response, data: body)  // throws on any error
/// ```
public protocol ResponseSerializing: Sendable {
    /// What the serializer produces.
    associatedtype Output: Sendable

    /// Serializes a response: the value, the error, both or neither (an empty JSON body is neither).
    ///
    /// ```swift
    /// let outcome = DataResponseSerializer().serializedResponse(response: response, data: body, request: nil)
    /// ```
    /// - Parameters:
    ///   - response: The response head; `nil` when there is none, in which case nothing is validated.
    ///   - data: The body; `nil` when there was none.
    ///   - request: The request the response answers; it supplies the failing URL when the response
    ///     has none, and its method decides the empty-response rules.
    func serializedResponse(response: HTTPResponse?, data: Data?, request: HTTPRequest?) -> SerializedResponse<Output>
}

extension ResponseSerializing {
    /// Serializes a response and throws its error, if any, dropping a value produced alongside it.
    ///
    /// Returns `nil` without throwing where AFNetworking produces neither a value nor an error (an
    /// empty or one-space JSON body, an empty property list).
    ///
    /// ```swift
    /// let items = try DecodableResponseSerializer<[Item]>().serialize(response: response, data: body)
    /// ```
    /// - Throws: The ``SerializedResponse/error`` of ``serializedResponse(response:data:request:)``.
    public func serialize(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest? = nil
    ) throws(SerializationError) -> Output? {
        try serializedResponse(response: response, data: data, request: request).get()
    }
}
