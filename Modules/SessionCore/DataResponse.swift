public import CourierHTTP
package import CourierSerialization
public import CourierTransport
public import FoundationEssentials

/// Everything a data task ended with: the request sent, the response, the body, the serialized
/// value and the error (AFNetworking hands over both when a serializer produced a value from a
/// failed response), and the metrics of every attempt and redirect hop.
///
/// ```swift
/// let response = try await session.response(for: request, serializer: JSONResponseSerializer())
/// print(response.response?.status ?? "-", response.value ?? "no content", response.metrics.count)
/// ```
public struct DataResponse<Value: Sendable>: Sendable {
    /// The last request sent (adapted, after redirects), or the original one if none was sent;
    /// `nil` when no request could be built (a call whose parameters could not be serialized).
    public let request: HTTPRequest?
    /// The final response head, when one arrived.
    public let response: HTTPResponse?
    /// The final response's body, when one arrived.
    public let data: Data?
    /// The serialized value, when the serializer produced one (even alongside an error).
    public let value: Value?
    /// The error, when the task or the serializer failed.
    public let error: SessionError?
    /// The metrics of each transfer, in order: one per attempt and per redirect hop.
    public let metrics: [TransferMetrics]
    /// The redirect responses followed, in order.
    public let redirects: [HTTPResponse]
    /// How many times the request was retried.
    public let retryCount: Int
    /// Where the final response came from when the session has a cache (a hit, a revalidation or
    /// a miss); `nil` without a cache or when it did not take part (an unsafe method).
    ///
    /// ```swift
    /// if response.cacheDisposition == .revalidated { print("304: the body is the cached one") }
    /// ```
    public package(set) var cacheDisposition: CacheDisposition? = nil

    /// Creates a response: a session makes them, and so do doubles of one (`MockSession`) and the
    /// tests of code that receives them.
    ///
    /// ```swift
    /// let response = DataResponse<Data>(
    ///     request: request, response: nil, data: nil, value: nil,
    ///     error: SessionError(kind: .cancelled, message: "cancelled", failingURL: request.url)
    /// )
    /// ```
    /// - Parameters:
    ///   - request: The last request sent, or `nil` when none could be built.
    ///   - response: The final response head.
    ///   - data: The final response's body.
    ///   - value: The serialized value.
    ///   - error: The error.
    ///   - metrics: The metrics of each transfer.
    ///   - redirects: The redirect responses followed.
    ///   - retryCount: How many times the request was retried.
    ///   - cacheDisposition: Where the response came from, in a session with a cache.
    public init(
        request: HTTPRequest?,
        response: HTTPResponse?,
        data: Data?,
        value: Value?,
        error: SessionError?,
        metrics: [TransferMetrics] = [],
        redirects: [HTTPResponse] = [],
        retryCount: Int = 0,
        cacheDisposition: CacheDisposition? = nil
    ) {
        self.request = request
        self.response = response
        self.data = data
        self.value = value
        self.error = error
        self.metrics = metrics
        self.redirects = redirects
        self.retryCount = retryCount
        self.cacheDisposition = cacheDisposition
    }

    /// The value, or the error thrown; `nil` when there is neither (an empty JSON body).
    ///
    /// ```swift
    /// let json = try response.get()
    /// ```
    /// - Throws: ``error`` when it is set, even if a value was produced too.
    public func get() throws(SessionError) -> Value? {
        if let error { throw error }
        return value
    }
}

extension DataResponse {
    /// The outcome of a call whose request could not be built: no task, no response.
    package static func serializationFailure(_ error: SerializationError) -> DataResponse {
        DataResponse(request: nil, response: nil, data: nil, value: nil, error: .unbuiltRequest(error))
    }
}
