internal import FoundationEssentials

/// `Authorization` default headers: Basic credentials (RFC 7617) and bearer tokens (RFC 6750).
extension HTTPRequestSerializer {
    /// The `Authorization` value for HTTP Basic credentials: `Basic ` and the base64 of the UTF-8 of
    /// `username:password`, with no line breaks (AFNetworking's
    /// `setAuthorizationHeaderFieldWithUsername:password:`).
    ///
    /// ```swift
    /// HTTPRequestSerializer.basicAuthorization(username: "user", password: "password")
    /// // "Basic dXNlcjpwYXNzd29yZA=="
    /// ```
    public static func basicAuthorization(username: String, password: String) -> String {
        "Basic " + Data((username + ":" + password).utf8).base64EncodedString()
    }

    /// Sends HTTP Basic credentials with every request that has no `Authorization` header.
    ///
    /// The base64 value can never be an invalid header value, so this cannot fail. RFC 7617 forbids a
    /// colon in the user name; as in AFNetworking, one is not rejected, but the server will split at it.
    ///
    /// ```swift
    /// var serializer = HTTPRequestSerializer()
    /// serializer.setAuthorizationHeader(username: "user", password: "password")
    /// ```
    public mutating func setAuthorizationHeader(username: String, password: String) {
        // The value is base64 text, so validation cannot fail; `try?` only satisfies the signature.
        try? setValue(Self.basicAuthorization(username: username, password: password), forHeader: "Authorization")
    }

    /// Sends `Authorization: Bearer <token>` with every request that has no `Authorization` header.
    ///
    /// ```swift
    /// try serializer.setAuthorizationHeader(bearerToken: "mF_9.B5f-4.1JqM")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   token is empty or is not RFC 6750 `b64token` text (letters, digits, `-._~+/`, trailing `=`).
    public mutating func setAuthorizationHeader(bearerToken: String) throws(SerializationError) {
        guard Self.isBearerToken(bearerToken) else {
            throw SerializationError(
                code: .invalidRequest,
                domain: .request,
                urlErrorCode: 0,
                localizedDescription: "The bearer token cannot be sent.",
                failureReason: "A bearer token must be RFC 6750 b64token text: letters, digits, -._~+/ and trailing =."
            )
        }
        try setValue("Bearer " + bearerToken, forHeader: "Authorization")
    }

    /// Removes the `Authorization` default header (AFNetworking's `clearAuthorizationHeader`).
    ///
    /// ```swift
    /// serializer.clearAuthorizationHeader()
    /// ```
    public mutating func clearAuthorizationHeader() {
        try? setValue(nil, forHeader: "Authorization")
    }

    /// RFC 6750 §2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isBearerToken(_ token: String) -> Bool {
        var bytes = token.utf8[...]
        while let last = bytes.last, last == UInt8(ascii: "=") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                return true
            default:
                return false
            }
        }
    }
}
