public import CourierHTTP
public import CourierImageCache
public import CourierSerialization
public import FoundationEssentials

/// Validates an image response and decodes its body: AFNetworking's `AFImageResponseSerializer`.
///
/// The acceptable content types are AFNetworking's image types plus `image/webp`
/// (``defaultAcceptableContentTypes``); another type fails validation with
/// `SerializationError` code `.unacceptableContentType` and, as in AFNetworking, nothing is decoded.
/// A status error alone does not stop decoding: the image comes back with the error alongside.
///
/// Beyond AFNetworking, which hands back `nil` and no error for bytes it cannot decode: an
/// undecodable body (a format other than PNG, JPEG and WebP, a truncated or corrupt file, one over
/// the decoder's limits) is a `.decodingFailed` error, domain `.response`, code -1016, with the
/// ``ImageDecodingError`` as its underlying error; an empty body is an `.emptyResponse` error.
///
/// ```swift
/// let serializer = ImageResponseSerializer(scale: 2, minimumLongestSide: 256)
/// let thumbnail = try serializer.serialize(response: result.response, data: result.body)
/// ```
///
/// - Important: Decoding takes time in proportion to the pixels and runs on the calling thread.
///   Call the serializer where that is acceptable (the session layer runs serializers off the
///   transport's thread), not from a transport's event loop.
public struct ImageResponseSerializer: ValidatingResponseSerializer {
    /// AFNetworking's acceptable image types (`image/tiff`, `image/jpeg`, `image/gif`, `image/png`,
    /// `image/ico`, `image/x-icon`, `image/bmp`, `image/x-bmp`, `image/x-xbitmap`,
    /// `image/x-win-bitmap`) and `image/webp`.
    public static let defaultAcceptableContentTypes: Set<String> = [
        "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon", "image/bmp",
        "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap", "image/webp",
    ]

    /// The checks; 200...299 and ``defaultAcceptableContentTypes`` by default.
    public var validator: ResponseValidator
    /// The decoder and its limits.
    public var decoder: ImageDecoder
    /// The scale given to decoded images: AFNetworking's `imageScale`. Linux has no screen scale
    /// to default to, so it is 1.
    public var scale: Double
    /// When set, JPEGs decode at the smallest DCT scale whose longest side is at least this long.
    public var minimumLongestSide: Int?

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = ImageResponseSerializer(decoder: ImageDecoder(limits: .init(maximumPixelCount: 16 << 20)))
    /// ```
    ///
    /// - Parameters:
    ///   - validator: The checks.
    ///   - decoder: The decoder.
    ///   - scale: The scale of decoded images.
    ///   - minimumLongestSide: The JPEG downsampling target.
    public init(
        validator: ResponseValidator = ResponseValidator(acceptableContentTypes: Self.defaultAcceptableContentTypes),
        decoder: ImageDecoder = ImageDecoder(),
        scale: Double = 1,
        minimumLongestSide: Int? = nil
    ) {
        self.validator = validator
        self.decoder = decoder
        self.scale = scale
        self.minimumLongestSide = minimumLongestSide
    }

    /// The decoded image, with the validation or decoding error, if any.
    ///
    /// ```swift
    /// let outcome = ImageResponseSerializer().serializedResponse(response: response, data: body, request: request)
    /// ```
    public func serializedResponse(response: HTTPResponse?, data: Data?, request: HTTPRequest?)
        -> SerializedResponse<PixelImage>
    {
        let validationError = validator.validate(response: response, data: data, request: request)
        if let validationError, validationError.contains(.unacceptableContentType) {
            return SerializedResponse(value: nil, error: validationError)
        }
        let failingURL = response?.url ?? request?.url
        guard let data, !data.isEmpty else {
            let empty = SerializationError(
                code: .emptyResponse,
                domain: .response,
                urlErrorCode: 0,
                localizedDescription: "Response could not be serialized, input data was nil or zero length.",
                failingURL: failingURL,
                response: response
            )
            return SerializedResponse(value: nil, error: validationError ?? empty)
        }
        do {
            let image = try decoder.decode(data, scale: scale, minimumLongestSide: minimumLongestSide)
            return SerializedResponse(value: image, error: validationError)
        } catch {
            let decodingError = SerializationError(
                code: .decodingFailed,
                domain: .response,
                urlErrorCode: -1016,
                localizedDescription: "Image data could not be decoded",
                failureReason: error.description,
                failingURL: failingURL,
                response: response,
                data: data,
                underlying: error
            )
            let chained = validationError.map { $0.underlying == nil ? $0.attaching(decodingError) : $0 }
            return SerializedResponse(value: nil, error: chained ?? decodingError)
        }
    }
}
