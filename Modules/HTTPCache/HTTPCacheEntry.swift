public import CourierHTTP
public import FoundationEssentials

/// One stored response with what RFC 9111 needs to judge it later: when its request went out and
/// its response arrived, and the request fields its `Vary` names.
///
/// A ``CachedResponseHandler`` sees and may change it before it is stored; an ``HTTPCacheStore``
/// keeps it.
///
/// ```swift
/// let entry = HTTPCacheEntry(
///     response: HTTPResponse(status: .ok, headers: try HTTPHeaders(["Cache-Control": "max-age=60"])),
///     body: Data("hello".utf8),
///     requestTime: Date(),
///     responseTime: Date()
/// )
/// ```
public struct HTTPCacheEntry: Sendable, Hashable {
    /// The response head as stored (hop-by-hop fields removed).
    public var response: HTTPResponse
    /// The body.
    public var body: Data
    /// When the request that brought the response went out (`request_time` of RFC 9111 §4.2.3).
    public var requestTime: Date
    /// When the response arrived (`response_time` of RFC 9111 §4.2.3).
    public var responseTime: Date
    /// The request fields the response's `Vary` names, as the request that brought it carried
    /// them, in `Vary`'s order.
    public var varyingRequestFields: [VaryingField]

    /// A request field a response varies on, and its value in the request that was answered.
    ///
    /// ```swift
    /// let field = HTTPCacheEntry.VaryingField(name: "Accept-Language", value: "fr")
    /// ```
    public struct VaryingField: Sendable, Hashable {
        /// The field's name, as `Vary` spells it.
        public var name: String
        /// The request's values joined with `", "`, or `nil` when the request did not carry it.
        public var value: String?

        /// Creates a varying field.
        ///
        /// ```swift
        /// let field = HTTPCacheEntry.VaryingField(name: "Accept", value: nil)
        /// ```
        /// - Parameters:
        ///   - name: The field's name.
        ///   - value: Its value in the request, or `nil` when absent.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Creates an entry.
    ///
    /// ```swift
    /// let entry = HTTPCacheEntry(response: response, body: body, requestTime: sent, responseTime: received)
    /// ```
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: The body.
    ///   - requestTime: When the request went out.
    ///   - responseTime: When the response arrived.
    ///   - varyingRequestFields: The request fields the response's `Vary` names.
    public init(
        response: HTTPResponse,
        body: Data,
        requestTime: Date,
        responseTime: Date,
        varyingRequestFields: [VaryingField] = []
    ) {
        self.response = response
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyingRequestFields = varyingRequestFields
    }

    /// What the entry counts against a store's size limit: the body, the header fields and the
    /// URL, plus a fixed overhead.
    ///
    /// ```swift
    /// let fits = entry.cost <= store.capacity
    /// ```
    public var cost: Int {
        let headers = response.headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        let vary = varyingRequestFields.reduce(0) { $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) + 4 }
        return body.count + headers + vary + (response.url?.absoluteString.utf8.count ?? 0) + 128
    }
}
