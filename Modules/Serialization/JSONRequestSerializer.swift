public import CourierHTTP
public import FoundationEssentials

/// AFNetworking's `AFJSONRequestSerializer`: parameters as a JSON body for body methods.
///
/// For methods in ``HTTPRequestSerializer/methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`)
/// it does exactly what ``HTTPRequestSerializer`` does: a form-encoded query string, no JSON. For other
/// methods it adds the default headers, and, when parameters are not `nil`, sets
/// `Content-Type: application/json` unless present and the body to the compact JSON. When parameters
/// are `nil` there is no body and no `Content-Type` (unlike the form serializer).
///
/// The top level may be an object (``Parameters``) or an array (``serialize(_:jsonObject:)``), as
/// `NSJSONSerialization` allows, and any `Encodable` value works too (``serialize(_:encoding:)``,
/// Alamofire's `JSONParameterEncoder`); a top-level scalar is not a valid JSON object for
/// AFNetworking and throws its error below.
///
/// Values JSON cannot hold (sets, bytes, NaN or infinite doubles) throw AFNetworking's error: request
/// domain, code -1016, failure reason "The \`parameters\` argument is not valid JSON.". Booleans are
/// `true`/`false`, null is `null`.
///
/// `/` is written `\/`, as AFNetworking's `NSJSONSerialization` writes it; both are valid JSON, and
/// ``WritingOptions/withoutEscapingSlashes`` writes `/`. Key order is unspecified unless
/// ``WritingOptions/sortedKeys`` is set (as in AFNetworking).
///
/// The HTTP settings (default headers, timeout, URI methods) live in ``base``; properties can be
/// reached directly through it:
///
/// ```swift
/// var serializer = JSONRequestSerializer(writingOptions: [.sortedKeys])
/// serializer.timeout = .seconds(10)
/// try serializer.base.setValue("application/json", forHeader: "Accept")
/// let request = try serializer.request(
///     method: .post,
///     urlString: "https://api.example.com/items",
///     parameters: ["name": "Ada", "tags": ["a", "b"]]
/// )
/// // body {"name":"Ada","tags":["a","b"]}, Content-Type: application/json
/// ```
@dynamicMemberLookup
public struct JSONRequestSerializer: HTTPRequestSerializerBased {
    /// How the JSON text is laid out.
    public struct WritingOptions: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: Int
        /// Creates options from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Object keys in lexicographic order, for stable bodies.
        public static let sortedKeys = WritingOptions(rawValue: 1 << 0)
        /// Indented, multi-line output.
        public static let prettyPrinted = WritingOptions(rawValue: 1 << 1)
        /// `/` as it is, instead of `\/`.
        public static let withoutEscapingSlashes = WritingOptions(rawValue: 1 << 2)
    }

    /// The body's content type.
    public static let contentType = "application/json"

    /// The HTTP serializer that supplies default headers, settings and the query-string path.
    public var base: HTTPRequestSerializer

    /// How the JSON text is laid out; compact with escaped slashes by default.
    public var writingOptions: WritingOptions

    /// Creates a JSON serializer.
    ///
    /// ```swift
    /// let serializer = JSONRequestSerializer(writingOptions: [.sortedKeys, .withoutEscapingSlashes])
    /// ```
    /// - Parameters:
    ///   - base: The HTTP serializer to build on; by default one with the standard default headers.
    ///   - writingOptions: The JSON layout.
    public init(base: HTTPRequestSerializer = HTTPRequestSerializer(), writingOptions: WritingOptions = []) {
        self.base = base
        self.writingOptions = writingOptions
    }

    /// Serializes `request`: a query string for URI methods, a JSON body otherwise.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .put, url: URL(string: "https://example.com/me")!)
    /// let sent = try JSONRequestSerializer().serialize(request, parameters: ["name": "Ada"])
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidJSONParameters``
    ///   (AF: -1016) when the parameters are not valid JSON; the encoder's error is underneath.
    public func serialize(_ request: HTTPRequest, parameters: Parameters?) throws(SerializationError) -> HTTPRequest {
        try base.serialize(request, parameters: parameters, contentType: Self.contentTypeField) {
            (parameters) throws(SerializationError) in try Self.encode(parameters, options: writingOptions)
        }
    }

    /// The JSON text of `parameters`.
    ///
    /// ```swift
    /// let data = try JSONRequestSerializer.encode(["path": "a/b"], options: [])  // {"path":"a\/b"}
    /// ```
    /// - Throws: ``SerializationError/Code/invalidJSONParameters``.
    public static func encode(_ parameters: Parameters, options: WritingOptions) throws(SerializationError) -> Data {
        try encode(EncodableParameterValue(value: .dictionary(parameters), format: .json), options: options)
    }

    /// The JSON text of any `Encodable` value whose top level is an array or an object.
    ///
    /// A top-level scalar (`42`, `"text"`, `null`) throws, as AFNetworking's validity check
    /// (`+[NSJSONSerialization isValidJSONObject:]`) refuses it; so do NaN and infinities.
    ///
    /// ```swift
    /// let data = try JSONRequestSerializer.encode(["a", "b"], options: [])  // ["a","b"]
    /// ```
    /// - Throws: ``SerializationError/Code/invalidJSONParameters``, with the encoder's error
    ///   underneath when it threw one.
    public static func encode(_ value: some Encodable, options: WritingOptions) throws(SerializationError) -> Data {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = []
        if options.contains(.sortedKeys) { formatting.insert(.sortedKeys) }
        if options.contains(.prettyPrinted) { formatting.insert(.prettyPrinted) }
        if options.contains(.withoutEscapingSlashes) { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        // The default `.throw` strategy rejects NaN and infinities, as NSJSONSerialization does.
        encoder.nonConformingFloatEncodingStrategy = .throw
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .invalidJSONParameters(underlying: error)
        }
        // The encoder writes no leading whitespace, so the first byte tells a container from a scalar.
        guard let first = data.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            throw .invalidJSONParameters(underlying: nil)
        }
        return data
    }

    static let contentTypeField = try? HTTPHeaders.Field(name: "Content-Type", value: contentType)
}
