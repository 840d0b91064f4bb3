#if canImport(Glibc)
    internal import Glibc
#endif

/// The `courier` command: a tour of what Courier does, and transfers on the libcurl transport.
///
/// ```
/// courier demo                                   # the tour (ci/demo runs it with the test servers)
/// courier get https://example.com/ --metrics
/// courier download https://example.com/big.iso --to big.iso --resume
/// courier upload https://example.com/upload --file big.iso --method POST
/// ```
@main
struct CourierCommand {
    static func main() async {
        // A closed stdout pipe (`courier get … | head`) is a write error, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let words = Array(arguments.dropFirst())
        switch arguments.first ?? "demo" {
        case "demo":
            let failures = await Demo().run()
            exit(failures == 0 ? 0 : 1)
        case "get":
            exit(await CommandRunner.execute(GetCommand.self, words))
        case "download":
            exit(await CommandRunner.execute(DownloadCommand.self, words))
        case "upload":
            exit(await CommandRunner.execute(UploadCommand.self, words))
        case "help", "-h", "--help":
            print(usage)
        case let other:
            StandardStreams.printError("courier: unknown command \(other)\n\(usage)")
            exit(2)
        }
    }

    static let usage = """
        usage: courier <command> [arguments]

          demo       a tour of Courier's modules, with real output (the transport part needs ci/demo)
          get        fetch a URL to stdout or --output FILE
          download   fetch a URL to --to FILE, optionally --resume a partial download
          upload     send --file FILE as the body of a PUT (or --method POST)
          help       this text

          \(GetCommand.usage)
          \(DownloadCommand.usage)
          \(UploadCommand.usage)

        shared options:
          --cacert FILE            trust the CAs in FILE (PEM) instead of the system store
          --header 'Name: value'   add a request header (repeatable; -H)
          --http1.1                never negotiate HTTP/2
          --proxy URL, --no-proxy  use this proxy, or none (default: http_proxy etc. from the environment)
          --progress               draw the progress line on stderr even when it is not a terminal
          --metrics                print timings, byte counts, protocol and connection reuse on stderr
          --report-rss             print peak_rss_mib=N (VmHWM) on stderr at exit

        exit status: 0 done, 1 failed (transport error category or HTTP status on stderr), 2 bad arguments
        resume: download keeps FILE.courier-resume (URL, ETag, Last-Modified, length) while FILE is partial
        """
}
