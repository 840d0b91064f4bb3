public import CourierHTTP
public import FoundationEssentials

/// AFNetworking's `AFHTTPRequestSerializer`: default headers, and parameters as a query string for
/// `GET`, `HEAD` and `DELETE` or as an `application/x-www-form-urlencoded` body for other methods.
///
/// A value type: its header store needs no lock (AFNetworking guards its dictionary with a concurrent
/// queue), and a copy changed on one task never affects another.
///
/// Rules, as AFNetworking applies them (`requestBySerializingRequest:withParameters:error:`):
/// 1. Each default header is added only where the request lacks it (case-insensitively): the request
///    wins.
/// 2. The query is computed only when `parameters` is not `nil`: ``customQuerySerializer`` when set,
///    otherwise ``QueryStringEncoder``.
/// 3. For a method in ``methodsEncodingParametersInURI`` (compared upper-cased), a non-empty query is
///    appended to the URL; an empty one appends nothing.
/// 4. For other methods the body is the query's UTF-8 bytes, *even when empty* (so a `POST` without
///    parameters gets an empty form body), replacing any body, and `Content-Type` becomes
///    `application/x-www-form-urlencoded` (no charset parameter) unless already set.
///
/// Where Courier deliberately differs from AFNetworking:
/// - A URL with a `#fragment` gets the query *before* the fragment (AFNetworking appends to the
///   absolute string, so the query lands inside the fragment).
/// - A URL whose query is empty (`http://x/?`) or ends in `&` gets no extra `&` (AFNetworking writes
///   `?&k=v`).
/// - Header names set on the serializer compare case-insensitively (AFNetworking's store is
///   case-sensitive, so `accept` and `Accept` could both be sent), and values are checked: a CR or
///   LF throws instead of reaching the wire.
/// - Bodies are always UTF-8; AFNetworking's `stringEncoding` has no counterpart.
///
/// ```swift
/// var serializer = HTTPRequestSerializer()
/// try serializer.setValue("application/json", forHeader: "Accept")
/// serializer.timeout = .seconds(30)
/// let search = try serializer.request(
///     method: .get,
///     urlString: "https://example.com/search#results",
///     parameters: ["q": "swift & linux"]
/// )
/// search.url.absoluteString  // "https://example.com/search?q=swift%20%26%20linux#results"
/// let login = try serializer.request(
///     method: .post,
///     urlString: "https://example.com/login",
///     parameters: ["user": "jane"]
/// )
/// // body "user=jane", Content-Type: application/x-www-form-urlencoded
/// ```
public struct HTTPRequestSerializer: RequestSerializing {
    /// A custom query string serializer: its result is used verbatim, with no further escaping.
    public typealias QuerySerializer = @Sendable (HTTPRequest, Parameters) throws -> String

    /// The form body's content type.
    public static let formContentType = "application/x-www-form-urlencoded"

    /// AFNetworking's default set of methods whose parameters go in the URL: `GET`, `HEAD`, `DELETE`.
    public static let defaultMethodsEncodingParametersInURI: Set<HTTPMethod> = [.get, .head, .delete]

    /// The methods whose parameters go in the query string; every other method gets a body.
    ///
    /// Membership compares upper-cased names, so `get` and `GET` are the same method here.
    public var methodsEncodingParametersInURI: Set<HTTPMethod> = HTTPRequestSerializer
        .defaultMethodsEncodingParametersInURI

    /// The headers added to every request that lacks them.
    public private(set) var headers: HTTPHeaders {
        didSet { defaultHeaderNamesAreDistinct = Self.namesAreDistinct(headers) }
    }

    /// Whether no two default headers share a name, so that a request without headers takes the
    /// list as it is (``HTTPHeaders/addMissing(from:)`` keeps only the first of a repeated name).
    private var defaultHeaderNamesAreDistinct: Bool

    /// When set, the transfer timeout of every request this serializer creates; `nil` leaves the
    /// transport's default (AFNetworking applies only the settings that were explicitly set).
    public var timeout: Duration?

    /// When set, whether requests this serializer creates use the cookie store; `nil` leaves the
    /// transport's default.
    public var handlesCookies: Bool?

    /// Replaces the default query string style when set; invoked only when parameters are not `nil`.
    ///
    /// An error it throws fails the serialization with
    /// ``SerializationError/Code/customQuerySerializationFailed`` carrying that error as
    /// ``SerializationError/underlying`` (AFNetworking hands back the block's error object itself).
    ///
    /// ```swift
    /// serializer.customQuerySerializer = { _, parameters in
    ///     parameters.keys.sorted().joined(separator: ",")
    /// }
    /// ```
    public var customQuerySerializer: QuerySerializer?

    /// How `Encodable` values become query strings and form bodies; AFNetworking's output
    /// (``URLEncodedFormEncoder/afNetworkingCompatible``) by default. ``customQuerySerializer`` takes
    /// ``Parameters`` only, so it plays no part for them.
    ///
    /// ```swift
    /// serializer.formEncoder.keyEncoding = .convertToSnakeCase
    /// ```
    public var formEncoder: URLEncodedFormEncoder = .afNetworkingCompatible

    /// Creates a serializer with the default `Accept-Language` and `User-Agent` headers.
    ///
    /// Both sources can be pinned, for tests or for a fixed identity.
    ///
    /// ```swift
    /// let serializer = HTTPRequestSerializer(preferredLanguages: ["en-GB", "fr"], userAgent: "app/1.0 (Linux)")
    /// serializer.value(forHeader: "Accept-Language")  // "en-GB;q=1, fr;q=0.9"
    /// ```
    /// - Parameters:
    ///   - preferredLanguages: The languages for `Accept-Language`, most preferred first; by default the
    ///     platform's (``AcceptLanguage/systemPreferredLanguages``). An empty list sends no header.
    ///   - userAgent: The `User-Agent` value; by default ``UserAgent/current(version:)``; `nil` sends none.
    public init(
        preferredLanguages: [String] = AcceptLanguage.systemPreferredLanguages,
        userAgent: String? = UserAgent.current()
    ) {
        var headers = HTTPHeaders()
        if let language = AcceptLanguage.headerValue(preferredLanguages: preferredLanguages),
            let field = try? HTTPHeaders.Field(name: "Accept-Language", value: language)
        {
            headers.add(field)
        }
        if let userAgent, let field = try? HTTPHeaders.Field(name: "User-Agent", value: UserAgent.asciiOnly(userAgent))
        {
            headers.add(field)
        }
        self.headers = headers
        defaultHeaderNamesAreDistinct = Self.namesAreDistinct(headers)
    }

    /// Creates a serializer whose default headers are exactly `defaultHeaders`.
    ///
    /// ```swift
    /// let serializer = HTTPRequestSerializer(defaultHeaders: try HTTPHeaders(["Accept": "text/html"]))
    /// ```
    public init(defaultHeaders: HTTPHeaders) {
        headers = defaultHeaders
        defaultHeaderNamesAreDistinct = Self.namesAreDistinct(defaultHeaders)
    }

    private static func namesAreDistinct(_ headers: HTTPHeaders) -> Bool {
        let fields = headers.fields
        return fields.indices.allSatisfy { index in
            !fields[..<index].contains { HTTPHeaders.namesMatch($0.name, fields[index].name) }
        }
    }

    /// Sets a default header, or removes it when `value` is `nil` (AFNetworking's
    /// `setValue:forHTTPHeaderField:`).
    ///
    /// ```swift
    /// try serializer.setValue("no-cache", forHeader: "Cache-Control")
    /// try serializer.setValue(nil, forHeader: "User-Agent")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   name is not a token or the value has CR, LF or NUL; the `HTTPValueError` is underneath.
    public mutating func setValue(_ value: String?, forHeader name: String) throws(SerializationError) {
        do {
            if let value {
                try headers.set(name: name, value: value)
            } else {
                _ = try HTTPHeaders.Field(name: name, value: "")
                headers.remove(name: name)
            }
        } catch {
            throw .invalidHeader(error)
        }
    }

    /// The default value of a header, compared case-insensitively.
    ///
    /// ```swift
    /// HTTPRequestSerializer(preferredLanguages: ["fr"]).value(forHeader: "accept-language")  // "fr;q=1"
    /// ```
    public func value(forHeader name: String) -> String? {
        headers[name]
    }

    /// Whether `method`'s parameters go in the query string (compared upper-cased, as AFNetworking).
    ///
    /// ```swift
    /// HTTPRequestSerializer().encodesParametersInURI(.delete)  // true
    /// HTTPRequestSerializer().encodesParametersInURI(.post)    // false
    /// ```
    public func encodesParametersInURI(_ method: HTTPMethod) -> Bool {
        // A method name is a token (RFC 9110 §9.1), so ASCII only: comparing ASCII case-insensitively
        // is comparing upper-cased names, without making two strings per set member and call.
        methodsEncodingParametersInURI.contains { HTTPHeaders.namesMatch($0.rawValue, method.rawValue) }
    }

    /// Returns a request with the explicitly set ``timeout`` and ``handlesCookies``.
    ///
    /// ```swift
    /// var serializer = HTTPRequestSerializer()
    /// serializer.timeout = .seconds(5)
    /// let request = serializer.makeRequest(method: .get, url: URL(string: "https://example.com/")!)
    /// request.timeout  // .seconds(5)
    /// ```
    public func makeRequest(method: HTTPMethod, url: URL) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url)
        if let timeout { request.timeout = timeout }
        if let handlesCookies { request.handlesCookies = handlesCookies }
        return request
    }

    /// Returns `request` with each default header it lacks.
    ///
    /// Other serializers built on this one (JSON, property lists, multipart forms) start here.
    ///
    /// ```swift
    /// let request = HTTPRequestSerializer().applyingDefaultHeaders(to: HTTPRequest(url: url))
    /// request.headers["User-Agent"]  // "my-tool (Linux 6.1.0-18-amd64)"
    /// ```
    public func applyingDefaultHeaders(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        if request.headers.isEmpty && defaultHeaderNamesAreDistinct {
            // What adding each missing field would give: the whole list, shared until either side
            // changes, instead of a new list grown field by field on every request.
            request.headers = headers
        } else {
            request.headers.reserveCapacity(request.headers.count + headers.count)
            request.headers.addMissing(from: headers)
        }
        return request
    }

    /// The query string for `parameters`: `nil` when they are `nil`, the custom serializer's result
    /// when set, otherwise ``QueryStringEncoder``'s.
    ///
    /// ```swift
    /// let query = try HTTPRequestSerializer().queryString(for: request, parameters: ["a": [1, 2]])
    /// // "a%5B%5D=1&a%5B%5D=2"
    /// ```
    /// - Throws: ``SerializationError/Code/customQuerySerializationFailed`` when the custom
    ///   serializer throws.
    public func queryString(for request: HTTPRequest, parameters: Parameters?) throws(SerializationError) -> String? {
        guard let parameters else { return nil }
        guard let customQuerySerializer else { return QueryStringEncoder().encode(parameters) }
        do {
            return try customQuerySerializer(request, parameters)
        } catch {
            throw .customQuerySerializationFailed(underlying: error, url: request.url)
        }
    }

    /// Serializes `request` with AFNetworking's rules (see the type's documentation).
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .delete, url: URL(string: "https://example.com/items/7")!)
    /// let sent = try HTTPRequestSerializer().serialize(request, parameters: ["force": true])
    /// sent.url.absoluteString  // "https://example.com/items/7?force=1"
    /// ```
    /// - Throws: ``SerializationError`` when a custom query serializer throws or the query makes the
    ///   URL unparsable.
    public func serialize(_ request: HTTPRequest, parameters: Parameters?) throws(SerializationError) -> HTTPRequest {
        var request = applyingDefaultHeaders(to: request)
        if encodesParametersInURI(request.method) {
            if let query = try queryString(for: request, parameters: parameters), !query.isEmpty {
                request.url = try Self.url(request.url, appendingQuery: query)
            }
            return request
        }
        let body: [UInt8]
        if let parameters, customQuerySerializer == nil {
            body = QueryStringEncoder().encodeBytes(parameters)
        } else {
            body = Array((try queryString(for: request, parameters: parameters) ?? "").utf8)
        }
        if !request.headers.contains(name: "Content-Type"), let field = Self.formContentTypeField {
            request.headers.add(field)
        }
        request.body = HTTPBody(Data(body))
        return request
    }

    /// The shape shared by serializers whose bodies have a format of their own (JSON, property
    /// lists): URI methods get this serializer's query string; other methods get the default headers
    /// and, when there are parameters, the encoded body and `contentType` unless already set.
    func serialize(
        _ request: HTTPRequest,
        parameters: Parameters?,
        contentType: HTTPHeaders.Field?,
        encodeBody: (Parameters) throws(SerializationError) -> Data
    ) throws(SerializationError) -> HTTPRequest {
        if encodesParametersInURI(request.method) {
            return try serialize(request, parameters: parameters)
        }
        guard let parameters else { return applyingDefaultHeaders(to: request) }
        return try serialize(
            request,
            query: { _ throws(SerializationError) in nil },
            contentType: contentType,
            body: { () throws(SerializationError) in try encodeBody(parameters) }
        )
    }

    /// The same shape for a value that is not a ``Parameters`` dictionary (an `Encodable` value, a
    /// top-level JSON array): `query` makes the query string of a URI method, `body` the body of any
    /// other method.
    func serialize(
        _ request: HTTPRequest,
        query: (HTTPRequest) throws(SerializationError) -> String?,
        contentType: HTTPHeaders.Field?,
        body: () throws(SerializationError) -> Data
    ) throws(SerializationError) -> HTTPRequest {
        var request = applyingDefaultHeaders(to: request)
        if encodesParametersInURI(request.method) {
            if let query = try query(request), !query.isEmpty {
                request.url = try Self.url(request.url, appendingQuery: query)
            }
            return request
        }
        let encoded = try body()
        if !request.headers.contains(name: "Content-Type"), let contentType {
            request.headers.add(contentType)
        }
        request.body = HTTPBody(encoded)
        return request
    }

    /// The shape for an `Encodable` value in a body format of its own: URI methods get the value's
    /// query string from ``formEncoder``; other methods get `body` and `contentType`.
    func serialize(
        _ request: HTTPRequest,
        encoding value: some Encodable,
        contentType: HTTPHeaders.Field?,
        body: () throws(SerializationError) -> Data
    ) throws(SerializationError) -> HTTPRequest {
        try serialize(
            request,
            query: { _ throws(SerializationError) in try formEncoder.encode(value) },
            contentType: contentType,
            body: body
        )
    }

    static let formContentTypeField = try? HTTPHeaders.Field(name: "Content-Type", value: formContentType)

    /// `url` with `query` added to its query component, before any fragment.
    ///
    /// A URL without a query gets `?query`; one with a query gets `&query`, unless that query is empty
    /// or already ends in `&`.
    ///
    /// ```swift
    /// try HTTPRequestSerializer.url(URL(string: "http://x/p?a=1#top")!, appendingQuery: "b=2")
    /// // http://x/p?a=1&b=2#top
    /// ```
    /// - Throws: ``SerializationError/Code/invalidRequest`` when the result does not parse as a URL.
    public static func url(_ url: URL, appendingQuery query: String) throws(SerializationError) -> URL {
        let absolute = url.absoluteString
        let hash = absolute.firstIndex(of: "#") ?? absolute.endIndex
        let base = absolute[..<hash]
        var text = String(base)
        if base.contains("?") {
            if let last = base.last, last != "?", last != "&" { text += "&" }
        } else {
            text += "?"
        }
        text += query
        text += absolute[hash...]
        guard let result = URL(string: text) else { throw .invalidQueryURL(text, url: url) }
        return result
    }
}
