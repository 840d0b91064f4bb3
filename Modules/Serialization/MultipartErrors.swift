internal import FoundationEssentials

/// The errors a multipart form raises, with AFNetworking's codes and texts where it defines them.
///
/// AFNetworking reports a bad file URL in the request domain with code -1000 (`NSURLErrorBadURL`)
/// and the failure reasons `Expected URL to be a file URL` and `File URL not reachable.`; everything
/// else (short streams, files that changed size, bad boundaries) is Courier's own check, reported with
/// code 0 because AFNetworking has no counterpart.
enum MultipartErrors {
    static func notAFileURL(_ url: URL) -> SerializationError {
        SerializationError(
            code: .notAFileURL,
            domain: .request,
            urlErrorCode: -1000,
            localizedDescription: "Expected URL to be a file URL",
            failureReason: "Expected URL to be a file URL",
            failingURL: url
        )
    }

    static func fileNotReachable(_ path: String, underlying: (any Error)? = nil) -> SerializationError {
        SerializationError(
            code: .fileNotReachable,
            domain: .request,
            urlErrorCode: -1000,
            localizedDescription: "File URL not reachable.",
            failureReason: "File URL not reachable.",
            underlying: underlying ?? MultipartFailure("\(path.debugDescription) cannot be read")
        )
    }

    static func streamFailed(_ reason: String, underlying: (any Error)? = nil) -> SerializationError {
        SerializationError(
            code: .multipartStreamFailed,
            domain: .request,
            urlErrorCode: 0,
            localizedDescription: "The multipart form could not be written: \(reason)",
            failureReason: reason,
            underlying: underlying
        )
    }

    static func invalidPart(_ reason: String, underlying: (any Error)? = nil) -> SerializationError {
        SerializationError(
            code: .invalidRequest,
            domain: .request,
            urlErrorCode: 0,
            localizedDescription: "Invalid multipart part: \(reason)",
            failureReason: reason,
            underlying: underlying
        )
    }
}

/// A plain explanation attached as the underlying error when no system error is involved.
struct MultipartFailure: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
