internal import CCourierOpenSSL

/// SHA-1 from OpenSSL's libcrypto, for `Sec-WebSocket-Accept` (RFC 6455 §4.2.2): the one use
/// RFC 6455 makes of it, where it is a checksum against confused servers, not a security measure.
enum SHA1Digest {
    /// The 20-byte digest of `bytes`, or an empty array if libcrypto fails (then the accept check fails).
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let empty: [UInt8] = [0]
        let status = bytes.withUnsafeBytes { raw in
            empty.withUnsafeBytes { empty in
                // EVP_Digest accepts a null pointer for zero bytes only; give it a valid one always.
                EVP_Digest(raw.baseAddress ?? empty.baseAddress, raw.count, &digest, &length, EVP_sha1(), nil)
            }
        }
        guard status == 1 else { return [] }
        return Array(digest.prefix(Int(length)))
    }
}
