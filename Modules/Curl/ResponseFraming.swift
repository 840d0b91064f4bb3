internal import CourierHTTP

/// The framing nearly every response has, recognised in one pass over the header names' bytes, so
/// that `CurlTransferState.framingViolation` runs its full check (value splitting, comparisons,
/// messages) only for the rare heads that need it.
enum ResponseFraming {
    /// Whether the body length is stated the one unambiguous way: no `Transfer-Encoding`, and at most
    /// one `Content-Length`, whose value is all digits (RFC 9110 §8.6). Such a head has nothing for
    /// the full check to find. Anything else (a list, a repeat, spaces, a `Transfer-Encoding`) answers
    /// `false` and goes to the full check.
    static func isPlainlyFramed(_ headers: HTTPHeaders) -> Bool {
        var lengths = 0
        for field in headers {
            let name = field.name.utf8
            if name.count == contentLength.count && equalsIgnoringASCIICase(name, contentLength) {
                lengths += 1
                let value = field.value.utf8
                guard lengths == 1, !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return false
                }
            } else if name.count == transferEncoding.count && equalsIgnoringASCIICase(name, transferEncoding) {
                return false
            }
        }
        return true
    }

    private static let contentLength = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)

    /// `name` equals the lowercase ASCII `target`, ignoring the case of ASCII letters only.
    private static func equalsIgnoringASCIICase(_ name: String.UTF8View, _ target: [UInt8]) -> Bool {
        var index = 0
        for byte in name {
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard index < target.count, lowered == target[index] else { return false }
            index += 1
        }
        return index == target.count
    }
}
