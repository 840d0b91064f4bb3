/// Why a request body was not compressed.
///
/// ```swift
/// if let failure = error.underlying as? RequestCompressionError { print(failure) }
/// ```
public enum RequestCompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request already has a `Content-Encoding` and the compressor was told to refuse it.
    case contentEncodingAlreadySet(String)
    /// The body can be read once only, so a compressed copy could not be sent again.
    case bodyNotReplayable
    /// zlib reported an error.
    case zlib(code: Int32, operation: String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .contentEncodingAlreadySet(let value): "the request already has Content-Encoding: \(value)"
        case .bodyNotReplayable: "the body can be read once only"
        case .zlib(let code, let operation): "zlib \(operation) failed with code \(code)"
        }
    }
}
