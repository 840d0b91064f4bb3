/// A `courier` command of the older kind, on the transport alone: `download`, `upload`.
protocol TransferCommand {
    /// The command's synopsis, printed with usage errors and `--help`.
    static var usage: String { get }
    /// Parses the words after the command name.
    init(_ words: [String]) throws(UsageError)
    /// The shared options, for what happens after the command (`--report-rss`).
    var settings: TransportSettings { get }
    /// Runs the transfer; returns the exit status or throws what went wrong.
    func run() async throws -> Int32
}

extension DownloadCommand: TransferCommand {}
extension UploadCommand: TransferCommand {}
