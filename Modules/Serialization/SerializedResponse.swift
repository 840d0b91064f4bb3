/// What a response serializer produced: a value, an error, both, or neither.
///
/// AFNetworking's serializers return an object and set an error independently, and that pairing is
/// behaviour callers rely on: a status failure does not stop JSON parsing, so a 422 with a JSON body
/// yields the body *and* the `-1011` error. `SerializedResponse` keeps both.
///
/// ```swift
/// let outcome = JSONResponseSerializer().serializedResponse(response: response, data: body, request: nil)
/// switch (outcome.value, outcome.error) {
/// case (let json?, nil): use(json)
/// case (let json?, let error?): showProblem(json, error)  // e.g. a JSON error page on 422
/// case (nil, let error?): fail(error)
/// case (nil, nil): break  // an empty body: nothing to show, nothing wrong
/// }
/// ```
public struct SerializedResponse<Value: Sendable>: Sendable {
    /// The value, when one could be produced.
    public var value: Value?
    /// The error, when validation or serialization failed.
    public var error: SerializationError?

    /// Creates an outcome.
    ///
    /// ```swift
    /// let outcome = SerializedResponse<String>(value: "ok", error: nil)
    /// ```
    public init(value: Value?, error: SerializationError?) {
        self.value = value
        self.error = error
    }

    /// The value, or the error thrown; `nil` when there is neither.
    ///
    /// ```swift
    /// let json = try outcome.get()
    /// ```
    /// - Throws: ``error`` when it is set, even if a value was produced too.
    public func get() throws(SerializationError) -> Value? {
        if let error { throw error }
        return value
    }

    /// The same outcome with the value transformed; the error is kept.
    ///
    /// ```swift
    /// let count = outcome.map { $0.count }
    /// ```
    public func map<NewValue: Sendable>(_ transform: (Value) -> NewValue) -> SerializedResponse<NewValue> {
        SerializedResponse<NewValue>(value: value.map(transform), error: error)
    }
}
