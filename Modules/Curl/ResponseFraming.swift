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
            if name.count == contentLengthName.count && equalsIgnoringASCIICase(name, contentLengthName) {
                lengths += 1
                let value = field.value.utf8
                guard lengths == 1, !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return false
                }
            } else if name.count == transferEncodingName.count && equalsIgnoringASCIICase(name, transferEncodingName) {
                return false
            }
        }
        return true
    }

    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncodingName = Array("transfer-encoding".utf8)
    private static let contentEncodingName = Array("content-encoding".utf8)

    /// `bytes` (a name's UTF-8 or its raw line bytes) equals the lowercase ASCII `target`, ignoring
    /// the case of ASCII letters only.
    private static func equalsIgnoringASCIICase(_ bytes: some Sequence<UInt8>, _ target: [UInt8]) -> Bool {
        var index = 0
        for byte in bytes {
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard index < target.count, lowered == target[index] else { return false }
            index += 1
        }
        return index == target.count
    }

    /// What one field says about framing, known from its name and (trimmed) value bytes while the
    /// parser reads its line.
    enum FieldRole: Equatable {
        /// `Content-Length`: its value when that is all digits and fits, `digits` when all digits.
        case contentLength(Int64?, digits: Bool)
        case transferEncoding
        case contentEncoding
        case other

        init(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            switch name.count {
            case 14 where ResponseFraming.equalsIgnoringASCIICase(name, contentLengthName):
                var number: Int64? = 0
                for byte in value {
                    guard byte >= 0x30 && byte <= 0x39 else {
                        self = .contentLength(nil, digits: false)
                        return
                    }
                    number = number.flatMap { current in
                        let (times, overflow) = current.multipliedReportingOverflow(by: 10)
                        let (sum, carry) = times.addingReportingOverflow(Int64(byte - 0x30))
                        return overflow || carry ? nil : sum
                    }
                }
                self = value.isEmpty ? .contentLength(nil, digits: false) : .contentLength(number, digits: true)
            case 16 where ResponseFraming.equalsIgnoringASCIICase(name, contentEncodingName): self = .contentEncoding
            case 17 where ResponseFraming.equalsIgnoringASCIICase(name, transferEncodingName): self = .transferEncoding
            default: self = .other
            }
        }
    }

    /// What a head's fields say about its body's framing, gathered field by field as the parser
    /// reads them, so that the final head is not searched again for `Content-Length`,
    /// `Transfer-Encoding` and `Content-Encoding` (each search walked every field and compared
    /// names as Strings, which showed in the per-request profile).
    ///
    /// Exact only when every field sat on one line: after a folded continuation
    /// (``isExact`` false) the answers are `nil` and the caller asks the headers instead.
    struct Facts {
        /// Whether the facts describe the head exactly (no folded line changed a value after it was
        /// looked at).
        var isExact = true
        private var contentLengthCount = 0
        private var contentLengthsAreDigits = true
        /// The first `Content-Length` value, when all digits and representable.
        private var firstContentLength: Int64?
        private var hasTransferEncoding = false
        private var hasContentEncoding = false

        mutating func note(_ role: FieldRole) {
            switch role {
            case .contentLength(let value, let digits):
                if contentLengthCount == 0 { firstContentLength = value }
                contentLengthCount += 1
                contentLengthsAreDigits = contentLengthsAreDigits && digits
            case .transferEncoding: hasTransferEncoding = true
            case .contentEncoding: hasContentEncoding = true
            case .other: break
            }
        }

        /// ``ResponseFraming/isPlainlyFramed(_:)`` of the head; `nil` when not exact.
        var isPlainlyFramed: Bool? {
            guard isExact else { return nil }
            return !hasTransferEncoding && contentLengthCount <= 1 && contentLengthsAreDigits
        }

        /// Whether the head has a `Content-Length` field; `nil` when not exact.
        var hasContentLength: Bool? {
            isExact ? contentLengthCount > 0 : nil
        }

        /// Whether the head may have a `Content-Encoding` field: `false` only when the facts are
        /// exact and the parser saw none, so a plain response skips searching its fields for one.
        var mayNameContentCoding: Bool { !isExact || hasContentEncoding }

        /// `DownloadFile.identityLength(headers)`: the declared length of an identity body. Worked
        /// out from the facts when they are exact and the head names no content coding (whose value
        /// the facts do not keep), else from `headers`.
        func identityLength(_ headers: HTTPHeaders) -> Int64? {
            guard isExact, !hasContentEncoding else { return DownloadFile.identityLength(headers) }
            return firstContentLength
        }
    }
}
