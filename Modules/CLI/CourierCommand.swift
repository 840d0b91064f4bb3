#if canImport(Glibc)
    internal import Glibc
#endif

/// The `courier` command: a tour of what Courier does, run against local servers where needed.
///
/// ```
/// courier demo    # the tour (ci/demo runs it)
/// courier help
/// ```
@main
struct CourierCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first ?? "demo" {
        case "demo":
            let failures = await Demo().run()
            exit(failures == 0 ? 0 : 1)
        case "help", "-h", "--help":
            print(usage)
        default:
            print(usage)
            exit(2)
        }
    }

    static let usage = """
        usage: courier <command>

          demo    a tour of Courier's modules, with real output
          help    this text
        """
}
