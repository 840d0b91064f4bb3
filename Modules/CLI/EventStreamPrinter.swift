internal import Courier
internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import FoundationEssentials

/// `courier --stream URL`: the response's Server-Sent Events, printed as they arrive in the
/// stream's own format (`id:`, `event:`, `data:` lines, a blank line after each event), so the
/// output can be piped to another event-stream reader.
struct EventStreamPrinter {
    let descriptor: Int32
    let messages: ErrorMessages

    func run(_ request: HTTPRequest, on client: CourierClient) async -> Int32 {
        do {
            for try await event in client.session.session.eventSource(for: request) {
                try StandardStreams.write(Data(Self.format(event).utf8), to: descriptor)
            }
            return ExitStatus.success
        } catch let failure as SessionError {
            messages.report(failure)
            return ExitStatus.of(failure)
        } catch {
            StandardStreams.printError("courier: error: \(error)")
            return ExitStatus.error
        }
    }

    static func format(_ event: ServerSentEvent) -> String {
        var text = ""
        if let id = event.id { text += "id: \(id)\n" }
        if event.type != "message" { text += "event: \(event.type)\n" }
        for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }
}
