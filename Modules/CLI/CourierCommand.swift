#if canImport(Glibc)
    internal import Glibc
#endif

/// The `courier` command: httpie's `[METHOD] URL [items]` on Courier, plus commands registered
/// under reserved words.
///
/// ```
/// courier POST https://httpbin.org/anything name=Ada age:=36
/// courier -d -o big.iso https://example.com/big.iso --continue
/// ```
@main
struct CourierCommand {
    /// Every reserved word. Other modules' commands (`image`, `reachability`) register here.
    static var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register("download", summary: "download URL --to FILE [--resume]: the older download command") {
            await CommandRunner.execute(DownloadCommand.self, $0)
        }
        registry.register("upload", summary: "upload URL --file FILE [--method PUT|POST]: a file as the body") {
            await CommandRunner.execute(UploadCommand.self, $0)
        }
        registry.register(
            "reachability",
            summary: "reachability [HOST|ADDRESS] [--watch]: AFNetworking's status and the path, from netlink"
        ) { await ReachabilityCommand.run($0) }
        registry.register(
            "image",
            summary: "image URL [--thumbnail WxH] -o FILE: download, decode, shrink to fit, write PNG"
        ) { await ImageCommand.run($0) }
        registry.register(
            "ws",
            summary: "ws URL [HEADER:VALUE ...]: a WebSocket; stdin's lines out as messages, messages in as lines"
        ) { await WebSocketCommand.run($0, registry: registry) }
        registry.register("help", summary: "this text (also --help)") { _ in
            print(CourierHelp.text(registry))
            return 0
        }
        return registry
    }

    /// What `courier --version` prints: the package's version.
    static let version = "0.1.0"

    static func main() async {
        // A closed stdout pipe (`courier … | head`) is a write error, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let registry = registry
        if let word = arguments.first, let command = registry.command(word) {
            exit(await command.run(Array(arguments.dropFirst())))
        }
        if arguments == ["--version"] {
            print(CourierCommand.version)
            exit(0)
        }
        if arguments.first == "--completion" || arguments.first?.hasPrefix("--completion=") == true {
            let shell =
                arguments.first == "--completion"
                ? arguments.dropFirst().first
                : arguments.first?.split(
                    separator: "=",
                    maxSplits: 1
                ).last.map(String.init)
            guard let shell,
                let script = ShellCompletion.script(for: shell, reservedWords: registry.commands.map(\.word))
            else {
                StandardStreams.printError("courier: --completion takes bash or zsh")
                exit(1)
            }
            print(script, terminator: "")
            exit(0)
        }
        if arguments == ["-h"] {
            print(CourierHelp.text(registry))
            exit(0)
        }
        if arguments.isEmpty {
            StandardStreams.printError(CourierHelp.text(registry))
            exit(1)
        }
        exit(await RequestCommand.run(arguments, registry: registry))
    }
}
