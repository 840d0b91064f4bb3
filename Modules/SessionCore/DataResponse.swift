public import CourierHTTP
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
    /// `nil` when no request could be built (an ``HTTPSessionManager`` call whose parameters could
    /// not be serialized).
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
    public internal(set) var cacheDisposition: CacheDisposition? = nil

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
