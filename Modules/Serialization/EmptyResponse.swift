public import CourierHTTP

/// A type that stands for "no body", so that a ``DecodableResponseSerializer`` can return it for a
/// response that legitimately has none (Alamofire's `EmptyResponse`).
///
/// ```swift
/// struct Accepted: Decodable, Sendable, EmptyResponseRepresentable {
///     static var emptyResponseValue: Accepted { Accepted() }
/// }
/// ```
public protocol EmptyResponseRepresentable {
    /// The value that an allowed empty response decodes to.
    static var emptyResponseValue: Self { get }
}

/// The value of a response without a body: decode into it for `204 No Content` or a `HEAD` request.
///
/// It also decodes from any JSON object, so an endpoint that sometimes answers `{}` works too.
///
/// ```swift
/// let serializer = DecodableResponseSerializer<EmptyResponseBody>()
/// _ = try serializer.serialize(response: noContentResponse, data: Data())  // EmptyResponseBody()
/// ```
public struct EmptyResponseBody: Codable, Sendable, Hashable, EmptyResponseRepresentable {
    /// Creates the empty value.
    public init() {}

    /// The one empty value.
    public static var emptyResponseValue: EmptyResponseBody { EmptyResponseBody() }
}

/// When an empty body is a legitimate answer: Alamofire's `emptyResponseCodes` and
/// `emptyRequestMethods`.
///
/// An empty body is allowed when the request method is in ``emptyRequestMethods`` (`HEAD` by
/// default: RFC 9110 §9.3.2 forbids a body) or the status is in ``emptyResponseCodes`` (204 and 205
/// by default: RFC 9110 §15.3.5–6 forbid one). Anywhere else an empty body where a value is required
/// is a ``SerializationError/Code/emptyResponse`` error.
///
/// ```swift
/// var policy = EmptyResponsePolicy()
/// policy.emptyResponseCodes.insert(201)  // this API answers 201 with no body
/// ```
public struct EmptyResponsePolicy: Sendable, Hashable {
    /// Status codes whose responses may be empty; 204 and 205 by default.
    public var emptyResponseCodes: Set<Int>
    /// Request methods whose responses may be empty; `HEAD` by default.
    public var emptyRequestMethods: Set<HTTPMethod>

    /// Creates a policy.
    ///
    /// ```swift
    /// let policy = EmptyResponsePolicy(emptyResponseCodes: [204, 205, 201])
    /// ```
    public init(emptyResponseCodes: Set<Int> = [204, 205], emptyRequestMethods: Set<HTTPMethod> = [.head]) {
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// Whether an empty body is a legitimate answer to this request and response.
    ///
    /// ```swift
    /// EmptyResponsePolicy().allowsEmptyBody(response: HTTPResponse(status: .noContent), request: nil)  // true
    /// ```
    public func allowsEmptyBody(response: HTTPResponse?, request: HTTPRequest?) -> Bool {
        if let request, emptyRequestMethods.contains(request.method) { return true }
        if let response, emptyResponseCodes.contains(response.status.code) { return true }
        return false
    }
}
