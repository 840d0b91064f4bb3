internal import CourierReachability
internal import CourierReachabilityNetlink
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier reachability [HOST|ADDRESS] [--watch [--changes N]]`: AFNetworking's reachability for
/// the default route, a host name or an address, from the rtnetlink monitor, with the path behind it.
///
/// Without `--watch` it prints the first status the monitor delivers and exits (0, or 1 when no
/// status came within 5 seconds); with `--watch` one line per change until interrupted, or until
/// `--changes N` lines were printed (for scripts that wait for the network to come back). Nothing is
/// sent to the target: the kernel is asked which route it would take.
enum ReachabilityCommand {
    static let usage = "courier reachability [HOST|ADDRESS] [--watch [--changes N]]"

    static func run(_ words: [String]) async -> Int32 {
        let parsed: ParsedArguments
        do {
            var specification = ArgumentSpecification(
                flags: ["--watch", "--help"],
                options: ["--changes"],
                aliases: ["-w": "--watch"]
            )
            specification.variadicPositionals = true
            parsed = try ParsedArguments.parse(words, specification)
            guard parsed.positionals.count <= 1 else { throw UsageError(message: "one target at most") }
        } catch {
            StandardStreams.printError("courier reachability: \(error)\nusage: \(usage)")
            return 1
        }
        if parsed.has("--help") {
            print("usage: \(usage)")
            return 0
        }
        let watching = parsed.has("--watch")
        var limit = watching ? Int.max : 1
        if let text = parsed.value("--changes") {
            guard let changes = Int(text), changes > 0, watching else {
                StandardStreams.printError(
                    "courier reachability: --changes takes a positive count, with --watch\nusage: \(usage)"
                )
                return 1
            }
            limit = changes
        }
        let label = parsed.positionals.first ?? "default"
        let target: ReachabilityTarget =
            switch parsed.positionals.first {
            case nil: .defaultRoute
            case let text?: IPAddress(text).map { .address($0) } ?? .host(text)
            }
        let monitor = NetlinkReachabilityMonitor(target: target)
        let paths = monitor.paths()
        monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let printer = Task {
            var printed = 0
            for await path in paths {
                // One write per line, straight to the descriptor: a reader sees each change as it happens.
                do {
                    try StandardStreams.write(Data((line(label, path) + "\n").utf8), to: 1)
                } catch {
                    return printed  // stdout closed: nobody is watching any more
                }
                printed += 1
                if printed >= limit { return printed }
            }
            return printed
        }
        if !watching {
            // The monitor's first delivery comes from one netlink dump: well under a second.
            let timeout = Task {
                try? await Task.sleep(for: .seconds(5))
                printer.cancel()
            }
            defer { timeout.cancel() }
            guard await printer.value == 1 else {
                StandardStreams.printError("courier reachability: no status within 5 seconds")
                return 1
            }
            return 0
        }
        _ = await printer.value
        return 0
    }

    /// `TARGET status=reachableViaWiFi (Reachable via WiFi) interface=eth0 kind=wired vpn=false …`
    static func line(_ label: String, _ path: NetworkPath) -> String {
        [
            label,
            "status=\(path.status.name) (\(path.status))",
            "interface=\(path.interface?.name ?? "-")",
            "kind=\(path.interface?.kind.rawValue ?? "-")",
            "vpn=\(path.isVirtualPrivateNetwork)",
            "ipv4=\(path.supportsIPv4)",
            "ipv6=\(path.supportsIPv6)",
            "gateway=\(path.gateway?.description ?? "-")",
        ].joined(separator: " ")
    }
}

extension ReachabilityStatus {
    /// AFNetworking's constant, without its prefix.
    fileprivate var name: String {
        switch self {
        case .unknown: "unknown"
        case .notReachable: "notReachable"
        case .reachableViaWWAN: "reachableViaWWAN"
        case .reachableViaWiFi: "reachableViaWiFi"
        }
    }
}
