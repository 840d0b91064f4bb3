/// A serializer that validates with a ``ResponseValidator``, the role of `AFHTTPResponseSerializer`
/// as a base class.
///
/// The forwarding properties keep AFNetworking's spelling, so `serializer.acceptableContentTypes`
/// reads as it did.
///
/// ```swift
/// var serializer = JSONResponseSerializer()
/// serializer.acceptableContentTypes?.insert("application/problem+json")
/// ```
public protocol ValidatingResponseSerializer: ResponseSerializing {
    /// The checks run before the body is read.
    var validator: ResponseValidator { get set }
}

extension ValidatingResponseSerializer {
    /// The validator's acceptable status codes; `nil` accepts every code.
    public var acceptableStatusCodes: Set<Int>? {
        get { validator.acceptableStatusCodes }
        set { validator.acceptableStatusCodes = newValue }
    }

    /// The validator's acceptable MIME types; `nil` accepts every type.
    public var acceptableContentTypes: Set<String>? {
        get { validator.acceptableContentTypes }
        set { validator.acceptableContentTypes = newValue }
    }

    /// How the validator compares types: AFNetworking's exact matching, or Alamofire's media ranges.
    ///
    /// ```swift
    /// var serializer = StringResponseSerializer()
    /// serializer.contentTypeMatching = .mediaRanges
    /// serializer.acceptableContentTypes = ["text/*"]
    /// ```
    public var contentTypeMatching: ResponseValidator.ContentTypeMatching {
        get { validator.contentTypeMatching }
        set { validator.contentTypeMatching = newValue }
    }
}
