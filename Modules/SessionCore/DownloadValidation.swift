package import CourierHTTP
package import CourierSerialization

/// The check a download's response gets: AFNetworking runs the default serializer on empty data,
/// so the status (200–299) is validated and the body, a file, is not read. The engine's runner,
/// its download completion and `MockSession` share it.
package enum DownloadValidation {
    /// The serializer's refusal of `response`, or `nil` when it is accepted.
    package static func refusal(of response: HTTPResponse?, for request: HTTPRequest?) -> SerializationError? {
        DataResponseSerializer().serializedResponse(response: response, data: nil, request: request).error
    }
}
