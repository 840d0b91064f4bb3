public import CourierHTTP
public import FoundationEssentials

/// AFNetworking's `AFPropertyListRequestSerializer`: parameters as a property-list body.
///
/// The split is JSON's: URI methods (`GET`, `HEAD`, `DELETE`) get ``HTTPRequestSerializer``'s query
/// string; other methods with parameters get `Content-Type: application/x-plist` unless present and
/// the parameters as a property list (XML 1.0 by default, or binary); `nil` parameters leave the body
/// and `Content-Type` alone.
///
/// Property lists have no null and no sets: either throws
/// ``SerializationError/Code/invalidPropertyListParameters`` with the encoder's error underneath, as
/// AFNetworking fails with the property-list writer's error. Bytes become `<data>`, booleans
/// `<true/>`/`<false/>`.
///
/// ```swift
/// var serializer = PropertyListRequestSerializer(format: .binary)
/// serializer.timeout = .seconds(10)
/// let request = try serializer.request(
///     method: .post,
///     urlString: "https://example.com/sync",
///     parameters: ["name": "Ada", "avatar": .data(Data([0xFF, 0xD8]))]
/// )
/// ```
@dynamicMemberLookup
public struct PropertyListRequestSerializer: HTTPRequestSerializerBased {
    /// A property-list file format.
    public enum Format: Sendable, Hashable {
        /// XML property list 1.0 (AFNetworking's default).
        case xml
        /// Binary property list (`bplist00`).
        case binary
    }

    /// The body's content type.
    public static let contentType = "application/x-plist"

    /// The HTTP serializer that supplies default headers, settings and the query-string path.
    public var base: HTTPRequestSerializer

    /// The file format of the body.
    public var format: Format

    /// Creates a property-list serializer.
    ///
    /// ```swift
    /// let serializer = PropertyListRequestSerializer()  // XML
    /// ```
    /// - Parameters:
    ///   - base: The HTTP serializer to build on; by default one with the standard default headers.
    ///   - format: The file format; XML by default.
    public init(base: HTTPRequestSerializer = HTTPRequestSerializer(), format: Format = .xml) {
        self.base = base
        self.format = format
    }

    /// Serializes `request`: a query string for URI methods, a property-list body otherwise.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .post, url: URL(string: "https://example.com/sync")!)
    /// let sent = try PropertyListRequestSerializer().serialize(request, parameters: ["a": 1])
    /// ```
    /// - Throws: ``SerializationError`` with code
    ///   ``SerializationError/Code/invalidPropertyListParameters`` when a value has no property-list form.
    public func serialize(_ request: HTTPRequest, parameters: Parameters?) throws(SerializationError) -> HTTPRequest {
        try base.serialize(request, parameters: parameters, contentType: Self.contentTypeField) {
            (parameters) throws(SerializationError) in try Self.encode(parameters, format: format)
        }
    }

    /// The property list of `parameters` in `format`.
    ///
    /// ```swift
    /// let xml = try PropertyListRequestSerializer.encode(["a": 1], format: .xml)
    /// ```
    /// - Throws: ``SerializationError/Code/invalidPropertyListParameters``.
    public static func encode(_ parameters: Parameters, format: Format) throws(SerializationError) -> Data {
        try encode(EncodableParameterValue(value: .dictionary(parameters), format: .propertyList), format: format)
    }

    /// The property list of any `Encodable` value in `format`.
    ///
    /// ```swift
    /// struct Sync: Encodable { let since: Int }
    /// let xml = try PropertyListRequestSerializer.encode(Sync(since: 7), format: .xml)
    /// ```
    /// - Throws: ``SerializationError/Code/invalidPropertyListParameters``, with the encoder's error
    ///   underneath (a `nil` has no property-list form, for one).
    public static func encode(_ value: some Encodable, format: Format) throws(SerializationError) -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .xml ? .xml : .binary
        do {
            return try encoder.encode(value)
        } catch {
            throw .invalidPropertyListParameters(underlying: error)
        }
    }

    static let contentTypeField = try? HTTPHeaders.Field(name: "Content-Type", value: contentType)
}
