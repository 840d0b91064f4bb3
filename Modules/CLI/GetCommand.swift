internal import CourierCurl
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier get URL`: streams the response body to stdout, or with `--output` lets the transport
/// write it to a file on its loop thread. Exits 1 for an HTTP error status (after the body), as
/// `curl --fail-with-body` does; a redirect is reported, not followed.
struct GetCommand {
    static let usage = """
        courier get URL [--output FILE] [--cacert FILE] [--header 'Name: value']... [--http1.1]
                [--proxy URL | --no-proxy] [--progress] [--metrics] [--report-rss]
        """

    let url: String
    let output: String?
    let settings: TransportSettings

    init(_ words: [String]) throws(UsageError) {
        let arguments = try ParsedArguments.parse(
            words,
            TransportSettings.specification(options: ["--output"], aliases: ["-o": "--output"], positionals: ["URL"])
        )
        url = arguments.positionals[0]
        output = arguments.value("--output")
        settings = try TransportSettings(arguments)
    }

    func run() async throws -> Int32 {
        let request = try settings.makeRequest(url)
        let cleanup = output.map(NewFileCleanup.init(path:))
        let transport = settings.makeTransport()
        var options = TransferOptions()
        if let output { options.destination = .file(path: output, resume: nil) }
        let driver = TransferDriver(direction: .download, progress: TransferDriver.progressLine(settings, label: "get"))
        let outcome: TransferDriver.Outcome
        do {
            outcome = try await driver.run(
                transport.startTransfer(request, options: options),
                onBody: { chunk in
                    try StandardStreams.write(chunk, to: STDOUT_FILENO)
                }
            )
        } catch {
            await transport.shutdown()
            cleanup?.removeIfLeftEmpty()
            throw error
        }
        await transport.shutdown()
        return TransferReport.finish(outcome, settings: settings)
    }
}
