internal import CourierHTTP
internal import CourierSessionCore
internal import FoundationEssentials

/// Puts a stubbed download's body where a real download would leave it: a temporary file first,
/// then the destination its chooser picks, with the chooser's replace and create-folders rules.
enum MockDownloadWriter {
    static func save(
        _ body: Data,
        for request: HTTPRequest,
        response: HTTPResponse,
        to destination: DownloadDestination.Choose
    ) -> DownloadResponse {
        let files = FileManager.default
        let temporary = files.temporaryDirectory.appending(path: "courier-mock-download-\(UUID().uuidString)")
        do {
            try body.write(to: temporary)
            let target = destination(temporary.path, response)
            let targetURL = URL(filePath: target.path)
            if target.createsIntermediateDirectories {
                try files.createDirectory(at: targetURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            if files.fileExists(atPath: target.path) {
                guard target.replacesExistingFile else {
                    throw MoveRefused(path: target.path)
                }
                try files.removeItem(atPath: target.path)
            }
            try files.moveItem(at: temporary, to: targetURL)
            return DownloadResponse(request: request, response: response, filePath: target.path)
        } catch {
            try? files.removeItem(at: temporary)
            let failure = SessionError(
                kind: .fileMoveFailed,
                message: "the stubbed download could not be saved: \(error)",
                failingURL: request.url,
                response: response,
                underlying: error
            )
            return DownloadResponse(request: request, response: response, filePath: nil, error: failure)
        }
    }

    /// A destination that exists and may not be replaced, as the engine refuses it.
    struct MoveRefused: Error, CustomStringConvertible {
        let path: String
        var description: String { "a file already exists at \(path)" }
    }
}
