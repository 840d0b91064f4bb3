internal import CourierCurl
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier upload URL --file FILE [--method PUT|POST]`: sends the file as the request body, read
/// lazily by the transport (`HTTPBody(fileAt:)`), then prints the status line and the response body
/// on stdout. `PUT` by default, as `curl -T` does.
struct UploadCommand {
    static let usage = """
        courier upload URL --file FILE [--method PUT|POST] [--cacert FILE] [--header 'Name: value']...
                [--http1.1] [--proxy URL | --no-proxy] [--progress] [--metrics] [--report-rss]
        """

    let url: String
    let file: String
    let method: HTTPMethod
    let settings: TransportSettings

    init(_ words: [String]) throws(UsageError) {
        let arguments = try ParsedArguments.parse(
            words,
            TransportSettings.specification(options: ["--file", "--method"], positionals: ["URL"])
        )
        guard let file = arguments.value("--file") else { throw UsageError(message: "upload needs --file FILE") }
        switch arguments.value("--method")?.uppercased() ?? "PUT" {
        case "PUT": method = .put
        case "POST": method = .post
        case let other: throw UsageError(message: "--method must be PUT or POST, not \(other)")
        }
        url = arguments.positionals[0]
        self.file = file
        settings = try TransportSettings(arguments)
    }

    func run() async throws -> Int32 {
        let body: HTTPBody
        do {
            body = try HTTPBody(fileAt: file)
        } catch {
            throw CommandFailure("cannot upload \(file): \(error)")
        }
        var request = try settings.makeRequest(url, method: method, body: body)
        if !request.headers.contains(name: "Content-Type") {
            try? request.headers.add(name: "Content-Type", value: "application/octet-stream")
        }
        let transport = settings.makeTransport()
        let driver = TransferDriver(
            direction: .upload,
            progress: TransferDriver.progressLine(settings, label: "upload")
        )
        let outcome: TransferDriver.Outcome
        do {
            outcome = try await driver.run(
                transport.startTransfer(request),
                onResponse: { response in
                    try StandardStreams.write(Data("\(response.version) \(response.status)\n".utf8), to: STDOUT_FILENO)
                },
                onBody: { chunk in try StandardStreams.write(chunk, to: STDOUT_FILENO) }
            )
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
        return TransferReport.finish(outcome, settings: settings)
    }
}
