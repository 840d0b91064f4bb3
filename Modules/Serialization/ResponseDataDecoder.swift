public import FoundationEssentials

/// Something that decodes a `Decodable` value from bytes: `JSONDecoder`, `PropertyListDecoder`, or
/// a custom format (Alamofire's `DataDecoder`).
///
/// ```swift
/// let plist = DecodableResponseSerializer<Settings>(
///     decoder: PropertyListDecoder(),
///     validator: ResponseValidator(acceptableContentTypes: ["application/x-plist"])
/// )
/// ```
public protocol ResponseDataDecoder: Sendable {
    /// Decodes a value of `type` from `data`.
    ///
    /// ```swift
    /// let user = try JSONDecoder().decode(User.self, from: body)
    /// ```
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value
}

extension JSONDecoder: ResponseDataDecoder {}

extension PropertyListDecoder: ResponseDataDecoder {}
