internal import Courier
internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierWebSocket
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier ws URL [HEADER:VALUE ...]`: a WebSocket through ``CourierClient``, with stdin's lines
/// sent as text messages and the server's messages printed one per line.
///
/// The handshake goes through the session as any request does, on the transport the HTTP commands
/// build from the same options: trust, pins, revocation, client identity, proxy and timeouts.
enum WebSocketCommand {
    static func run(_ words: [String], registry: CommandRegistry) async -> Int32 {
        let line: WebSocketCommandLine
        do {
            line = try WebSocketGrammar.parse(words, registry: registry)
        } catch {
            return usageFailure(error)
        }
        if line.showsHelp {
            print(WebSocketHelp.text)
            return ExitStatus.success
        }
        let status: Int32
        do {
            status = try await connect(line)
        } catch let error as UsageError {
            return usageFailure(error)
        } catch {
            StandardStreams.printError("courier: error: \(error)")
            status = ExitStatus.error
        }
        if line.request.reportsPeakRSS { StandardStreams.printError(PeakRSS.reportLine) }
        return status
    }

    private static func usageFailure(_ error: UsageError) -> Int32 {
        StandardStreams.printError("courier ws: \(error.message)\nusage: \(WebSocketGrammar.usage)")
        return ExitStatus.error
    }

    /// Opens the connection, runs the exchange and says how it ended.
    private static func connect(_ line: WebSocketCommandLine) async throws -> Int32 {
        var request = try RequestBuilder(line: line.request).build()
        // httpie's Accept is about a response body; an upgrade has none.
        request.headers.remove(name: "Accept")
        let binaryDescriptor = try line.binaryFile.map(WebSocketMessagePrinter.openBinaryFile)
        defer { if let binaryDescriptor { close(binaryDescriptor) } }
        let client = try RequestCommand.makeClient(line.request, original: request)
        let configuration = line.configuration
        let messages = WebSocketErrorMessages(
            messages: ErrorMessages(line.request),
            host: ErrorMessages.place(request.url)
        )
        let heads = line.request.verbose ? WebSocketHeads() : nil
        try heads?.writeRequest(request, configuration: configuration)
        let connection: any WebSocketConnection
        do {
            connection = try await client.webSocket(request, configuration: configuration)
        } catch {
            if let response = error.response { try? heads?.writeResponse(response) }
            for text in messages.lines(error) { StandardStreams.printError(text) }
            await client.shutdown()
            return WebSocketErrorMessages.status(error)
        }
        try heads?.writeResponse(connection.handshakeResponse)
        let exchange = WebSocketExchange(
            connection: connection,
            printer: WebSocketMessagePrinter(descriptor: STDOUT_FILENO, binaryDescriptor: binaryDescriptor),
            lines: line.readsStandardInput ? StandardInputLines() : nil,
            maximumMessages: line.maximumMessages
        )
        let interruption = WebSocketInterruption(closing: connection)
        let outcome = await exchange.run()
        interruption.stop()
        await client.shutdown()
        switch outcome {
        case .closed where interruption.happened:
            return WebSocketInterruption.exitStatus
        case .closed(let close):
            guard let text = messages.closed(close) else { return ExitStatus.success }
            StandardStreams.printError("courier: " + text)
            return ExitStatus.error
        case .failed(let error):
            for text in messages.lines(error) { StandardStreams.printError(text) }
            return WebSocketErrorMessages.status(error)
        case .outputFailed(let message):
            StandardStreams.printError("courier: error: \(message)")
            return ExitStatus.error
        }
    }
}
