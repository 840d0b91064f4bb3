public import CourierHTTP
internal import CourierSerialization
public import FoundationEssentials

/// A condition on a request that ``MockTransport`` recorded, which says why a request fails it.
///
/// Build one from the factories (method, URL, path, query item, header, body) and combine them with
/// `&&`, `||` and `!`; hand it to ``MockTransport/requests(matching:)``,
/// ``MockTransport/callCount(matching:)`` or ``MockTransport/verify(_:called:)``. Each factory
/// explains a mismatch in words (`method is GET, not POST`), so a failed verification says what
/// was sent instead.
///
/// ```swift
/// let createsItem: RequestMatcher =
///     .method(.post) && .path("/v1/items") && .header("Authorization", "Bearer t0k3n")
///     && .body(json: #"{"name":"Ada"}"#)
/// #expect(transport.callCount(matching: createsItem) == 1)
/// ```
public struct RequestMatcher: Sendable, CustomStringConvertible {
    /// What the matcher accepts, in words: `POST and path /v1/items`.
    public let description: String
    private let check: @Sendable (MockTransport.RecordedRequest) -> [String]

    /// A matcher from a predicate; a request it rejects is explained as `not <description>`.
    ///
    /// ```swift
    /// let large = RequestMatcher("a body over 1 KiB") { $0.body.count > 1024 }
    /// ```
    /// - Parameters:
    ///   - description: What the predicate accepts, for messages.
    ///   - matches: Whether a recorded request is accepted.
    public init(_ description: String, matches: @escaping @Sendable (MockTransport.RecordedRequest) -> Bool) {
        self.init(description) { request in matches(request) ? [] : ["not \(description)"] }
    }

    private init(_ description: String, check: @escaping @Sendable (MockTransport.RecordedRequest) -> [String]) {
        self.description = description
        self.check = check
    }

    /// Why `request` does not match, one phrase per failed condition; empty when it matches.
    ///
    /// ```swift
    /// RequestMatcher.method(.post).mismatches(recorded)  // ["method is GET, not POST"]
    /// ```
    /// - Parameter request: A request the transport recorded.
    /// - Returns: The reasons, in the order the conditions were combined.
    public func mismatches(_ request: MockTransport.RecordedRequest) -> [String] {
        check(request)
    }

    /// Whether `request` matches.
    ///
    /// ```swift
    /// let posts = transport.requests.filter(RequestMatcher.method(.post).matches)
    /// ```
    /// - Parameter request: A request the transport recorded.
    /// - Returns: `true` when every condition holds.
    public func matches(_ request: MockTransport.RecordedRequest) -> Bool {
        check(request).isEmpty
    }

    // MARK: Factories

    /// Every request.
    public static let any = RequestMatcher("any request") { _ in [] }

    /// Requests with this method.
    ///
    /// ```swift
    /// transport.callCount(matching: .method(.delete))
    /// ```
    /// - Parameter method: The method.
    /// - Returns: The matcher.
    public static func method(_ method: HTTPMethod) -> RequestMatcher {
        RequestMatcher(method.rawValue) { request in
            request.request.method == method ? [] : ["method is \(request.request.method), not \(method)"]
        }
    }

    /// Requests for this absolute URL, compared as strings.
    ///
    /// ```swift
    /// transport.callCount(matching: .url("https://api.example.com/v1/me"))
    /// ```
    /// - Parameter url: The absolute URL, query included.
    /// - Returns: The matcher.
    public static func url(_ url: String) -> RequestMatcher {
        RequestMatcher("URL \(url)") { request in
            let sent = request.url.absoluteString
            return sent == url ? [] : ["URL is \(sent), not \(url)"]
        }
    }

    /// Requests whose URL path is `path` (percent-encoded, without the query), on any host.
    ///
    /// ```swift
    /// transport.callCount(matching: .method(.get) && .path("/v1/items"))
    /// ```
    /// - Parameter path: The path, such as `/v1/items`.
    /// - Returns: The matcher.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("path \(path)") { request in
            let sent = request.url.path(percentEncoded: true)
            return sent == path ? [] : ["path is \(sent), not \(path)"]
        }
    }

    /// Requests whose query has an item `name`, with `value` when given (`nil` accepts any value,
    /// including none).
    ///
    /// ```swift
    /// transport.callCount(matching: .query("page", "2"))
    /// ```
    /// - Parameters:
    ///   - name: The item's name, decoded.
    ///   - value: The item's value, decoded; `nil` for any.
    /// - Returns: The matcher.
    public static func query(_ name: String, _ value: String? = nil) -> RequestMatcher {
        let wanted = value.map { "\(name)=\($0)" } ?? name
        return RequestMatcher("query item \(wanted)") { request in
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: true)?.queryItems ?? []
            let named = items.filter { $0.name == name }
            if named.isEmpty { return ["query has no item \(name)"] }
            guard let value, !named.contains(where: { $0.value == value }) else { return [] }
            let sent = named.map { $0.value.map { "\"\($0)\"" } ?? "no value" }.joined(separator: ", ")
            return ["query item \(name) is \(sent), not \"\(value)\""]
        }
    }

    /// Requests that carry the header field `name` (case-insensitive), with `value` when given.
    ///
    /// A field sent several times matches when any of its values is `value`.
    ///
    /// ```swift
    /// transport.callCount(matching: .header("Authorization", "Bearer t0k3n"))
    /// transport.callCount(matching: !.header("Cookie"))
    /// ```
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The exact value; `nil` for any.
    /// - Returns: The matcher.
    public static func header(_ name: String, _ value: String? = nil) -> RequestMatcher {
        RequestMatcher(value.map { "header \(name): \($0)" } ?? "header \(name)") { request in
            let values = request.request.headers.values(for: name)
            if values.isEmpty { return ["header \(name) is missing"] }
            guard let value, !values.contains(value) else { return [] }
            let sent = values.map { "\"\($0)\"" }.joined(separator: ", ")
            return ["header \(name) is \(sent), not \"\(value)\""]
        }
    }

    /// Requests whose body is exactly these bytes.
    ///
    /// ```swift
    /// transport.callCount(matching: .body(Data([0x01, 0x02])))
    /// ```
    /// - Parameter body: The bytes.
    /// - Returns: The matcher.
    public static func body(_ body: Data) -> RequestMatcher {
        RequestMatcher("body of \(body.count) bytes") { request in
            request.body == body ? [] : ["body is \(summary(of: request.body)), not \(summary(of: body))"]
        }
    }

    /// Requests whose body is this text in UTF-8.
    ///
    /// ```swift
    /// transport.callCount(matching: .body("name=Ada&role=admin"))
    /// ```
    /// - Parameter text: The text.
    /// - Returns: The matcher.
    public static func body(_ text: String) -> RequestMatcher {
        let bytes = Data(text.utf8)
        return RequestMatcher("body \"\(text)\"") { request in
            request.body == bytes ? [] : ["body is \(summary(of: request.body)), not \(summary(of: bytes))"]
        }
    }

    /// Requests whose body is JSON equal to `json` as a value: key order and whitespace do not
    /// count, numbers compare by value.
    ///
    /// ```swift
    /// transport.callCount(matching: .body(json: #"{"name":"Ada","tags":["a"]}"#))
    /// ```
    /// - Parameter json: The expected JSON text; text that is not JSON matches nothing.
    /// - Returns: The matcher.
    public static func body(json: String) -> RequestMatcher {
        let expected = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        return RequestMatcher("JSON body \(json)") { request in
            guard let expected else { return ["the expected text is not JSON: \(json)"] }
            guard let sent = try? JSONDecoder().decode(JSONValue.self, from: request.body) else {
                return ["body is not JSON: \(summary(of: request.body))"]
            }
            return sent == expected ? [] : ["JSON body is \(summary(of: request.body)), not \(json)"]
        }
    }

    /// Requests whose body decodes as `type` (with a default `JSONDecoder`) and passes `predicate`.
    ///
    /// ```swift
    /// transport.callCount(matching: .body(decoding: NewItem.self) { $0.name == "Ada" })
    /// ```
    /// - Parameters:
    ///   - type: The type the body decodes to.
    ///   - predicate: The condition on the decoded value.
    /// - Returns: The matcher.
    public static func body<Value: Decodable & Sendable>(
        decoding type: Value.Type,
        where predicate: @escaping @Sendable (Value) -> Bool
    ) -> RequestMatcher {
        RequestMatcher("body decoding as \(Value.self) that passes the condition") { request in
            let value: Value
            do {
                value = try JSONDecoder().decode(Value.self, from: request.body)
            } catch {
                return ["body does not decode as \(Value.self) (\(error)): \(summary(of: request.body))"]
            }
            return predicate(value) ? [] : ["body \(summary(of: request.body)) fails the condition on \(Value.self)"]
        }
    }

    // MARK: Combining

    /// Requests that match both.
    ///
    /// ```swift
    /// let matcher: RequestMatcher = .method(.get) && .path("/v1/me")
    /// ```
    /// - Parameters:
    ///   - lhs: The first condition.
    ///   - rhs: The second condition.
    /// - Returns: The matcher; a request is explained by every condition it fails.
    public static func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("\(lhs) and \(rhs)") { request in lhs.check(request) + rhs.check(request) }
    }

    /// Requests that match either.
    ///
    /// ```swift
    /// let writes: RequestMatcher = .method(.post) || .method(.put)
    /// ```
    /// - Parameters:
    ///   - lhs: The first condition.
    ///   - rhs: The second condition.
    /// - Returns: The matcher.
    public static func || (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("(\(lhs) or \(rhs))") { request in
            let left = lhs.check(request)
            guard !left.isEmpty else { return [] }
            let right = rhs.check(request)
            guard !right.isEmpty else { return [] }
            return ["neither (\((left).joined(separator: "; "))) nor (\(right.joined(separator: "; ")))"]
        }
    }

    /// Requests that do not match.
    ///
    /// ```swift
    /// let anonymous: RequestMatcher = !.header("Authorization")
    /// ```
    /// - Parameter matcher: The condition to negate.
    /// - Returns: The matcher.
    public static prefix func ! (matcher: RequestMatcher) -> RequestMatcher {
        RequestMatcher("not (\(matcher))") { request in
            matcher.check(request).isEmpty ? ["matches \(matcher)"] : []
        }
    }

    /// The body as text for messages: UTF-8 shortened to 200 characters, or its size when it is
    /// not text.
    static func summary(of body: Data) -> String {
        if body.isEmpty { return "empty" }
        guard let text = String(validating: body, as: UTF8.self) else { return "\(body.count) bytes, not UTF-8" }
        let limit = 200
        return text.count <= limit ? "\"\(text)\"" : "\"\(text.prefix(limit))…\" (\(body.count) bytes)"
    }
}
