/// What a transport does to every request on its own, beside the request's fields: whether it uses
/// its cookie store and whether it asks for compressed responses.
///
/// The session layer reads it (``HTTPTransport/requestDefaults``) to describe a request as it goes
/// on the wire, for instance as a `curl` command line, without knowing the transport.
///
/// ```swift
/// let defaults = transport.requestDefaults
/// let sendsCookies = request.handlesCookies ?? defaults.handlesCookies
/// ```
public struct TransportRequestDefaults: Sendable, Hashable {
    /// Whether a request whose `handlesCookies` is `nil` reads and writes the transport's cookie
    /// store.
    public var handlesCookies: Bool
    /// Whether a request without an `Accept-Encoding` field is sent one that names every content
    /// coding the transport decodes, and its response body decoded (libcurl's
    /// `CURLOPT_ACCEPT_ENCODING` set to `""`, the `curl` tool's `--compressed`).
    public var decompressesResponses: Bool

    /// Creates a description of a transport's defaults.
    ///
    /// ```swift
    /// let defaults = TransportRequestDefaults(handlesCookies: true, decompressesResponses: false)
    /// ```
    /// - Parameters:
    ///   - handlesCookies: Whether requests use the cookie store unless they say otherwise.
    ///   - decompressesResponses: Whether requests ask for compressed responses, decoded on arrival.
    public init(handlesCookies: Bool, decompressesResponses: Bool) {
        self.handlesCookies = handlesCookies
        self.decompressesResponses = decompressesResponses
    }
}
