public import CourierHTTP
public import CourierImageCache

/// What a successful image download hands back: AFNetworking's success block arguments.
///
/// ```swift
/// let response = try await downloader.image(for: request)
/// print(response.image.width, response.response == nil ? "from the cache" : "loaded")
/// ```
public struct ImageDownloadResponse: Sendable {
    /// The request, as the caller gave it.
    public let request: HTTPRequest
    /// The response; `nil` when the image came from the image cache, as in AFNetworking.
    public let response: HTTPResponse?
    /// The decoded image.
    public let image: PixelImage
}
