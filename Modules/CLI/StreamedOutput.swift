internal import Courier
internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import FoundationEssentials

/// `-o FILE` without `--download`: the response body goes to the file chunk by chunk as it
/// arrives, so a body of any size costs a few buffers, not its size in memory (httpie writes its
/// `--output` file from the response's chunk iterator too).
///
/// The session's streaming response runs adapters, redirects and retries up to the head; nothing
/// is retried after it. Three cases still read the body whole, as they need all of it:
/// `--pretty=format` on a JSON body, the metrics (`m`, known only once the task ends) and
/// `--retries` (a retryable status is retried only when the response is refused, which needs the
/// whole exchange).
struct StreamedOutput {
    let line: RequestCommandLine
    let writer: MessageWriter

    /// Whether this command line's response can go to the file as it arrives.
    static func applies(to line: RequestCommandLine, selection: OutputSelection) -> Bool {
        line.output != nil && !line.download && !line.streamsEvents && line.retries == 0
            && !selection.shows("m") && !selection.formats && !line.showsMetrics
            && !line.printsAllHops
    }

    /// Sends `request`, writes the head and streams the body; returns the exit status.
    func run(_ request: HTTPRequest, on client: CourierClient) async throws -> Int32 {
        let stream: StreamingResponse
        do {
            stream = try await client.session.session.streamingResponse(for: request)
        } catch {
            ErrorMessages(line).report(error)
            return ExitStatus.of(error)
        }
        let head = stream.response
        try writer.writeHead(head)
        if writer.selection.shows("b") {
            do {
                for try await chunk in stream.body {
                    try StandardStreams.write(chunk, to: writer.descriptor)
                }
            } catch let error as SessionError {
                ErrorMessages(line).report(error)
                return ExitStatus.of(error)
            }
        }
        guard line.checksStatus else { return ExitStatus.success }
        let status = ExitStatus.of(status: head.status.code, follows: line.follows)
        if status != ExitStatus.success { StandardStreams.printError("courier: warning: HTTP \(head.status)") }
        return status
    }
}
