internal import CourierTransport

/// Runs a transfer command and turns its outcome into an exit status: 0 done, 1 a typed failure
/// (printed as one clean line on stderr) or bad arguments (with the usage text, as httpie: 2 means
/// a timeout there).
enum CommandRunner {
    static func execute<Command: TransferCommand>(_ type: Command.Type, _ words: [String]) async -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            print("usage: " + Command.usage)
            return 0
        }
        let command: Command
        do {
            command = try Command(words)
        } catch {
            return usageFailure(error, usage: Command.usage)
        }
        var status: Int32
        do {
            status = try await command.run()
        } catch let error as UsageError {
            return usageFailure(error, usage: Command.usage)
        } catch let error as TransportError {
            for line in ErrorMessages().lines(error, verbose: words.contains("--debug")) {
                StandardStreams.printError(line)
            }
            status = 1
        } catch {
            StandardStreams.printError("courier: error: \(error)")
            status = 1
        }
        if command.settings.reportsPeakRSS { StandardStreams.printError(PeakRSS.reportLine) }
        return status
    }

    static func usageFailure(_ error: UsageError, usage: String) -> Int32 {
        StandardStreams.printError("courier: \(error.message)\nusage: \(usage)")
        return 1
    }
}
