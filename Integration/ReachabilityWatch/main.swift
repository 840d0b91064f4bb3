// The reachability monitor as a helper process, for the integration tests that run it inside a
// network namespace (`ip netns exec NS courier-reachability-watch …`, where /sys is the namespace's).
//
//     CourierReachabilityWatch [--cellular IFNAME]... [--loopback-resolver-only] LABEL=TARGET...
//
// TARGET is `default`, `address:IP` or `host:NAME`. Interfaces named with --cellular are classified
// as cellular (the injected classifier); the rest as /sys says. With --loopback-resolver-only it
// refuses to start unless every `nameserver` in /etc/resolv.conf is 127.0.0.1 or ::1: when the
// namespace's own resolv.conf was not mounted, no name may go to the machine's resolver. Prints one
// line per delivery,
//
//     LABEL status=reachableViaWiFi interface=veth0 kind=virtual vpn=false ipv4=true ipv6=false gateway=10.99.0.254
//
// and each diagnostic on standard error. Exits when standard input closes.
import CourierDiagnostics
import CourierReachability
import CourierReachabilityNetlink
import Dispatch
import Glibc

struct NamedCellular: InterfaceClassifying {
    let names: Set<String>
    let fallback = SysfsInterfaceClassifier()

    func classify(_ interface: InterfaceDescriptor) -> InterfaceClassification {
        names.contains(interface.name) ? InterfaceClassification(kind: .cellular) : fallback.classify(interface)
    }
}

/// Writes one whole line with one system call, so lines from different monitors never interleave.
func emit(_ text: String, to descriptor: Int32) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    emit("CourierReachabilityWatch: \(message)", to: 2)
    exit(2)
}

func statusName(_ status: ReachabilityStatus) -> String {
    switch status {
    case .unknown: "unknown"
    case .notReachable: "notReachable"
    case .reachableViaWWAN: "reachableViaWWAN"
    case .reachableViaWiFi: "reachableViaWiFi"
    }
}

func line(_ label: String, _ path: NetworkPath) -> String {
    [
        label,
        "status=\(statusName(path.status))",
        "interface=\(path.interface?.name ?? "-")",
        "kind=\(path.interface?.kind.rawValue ?? "-")",
        "vpn=\(path.isVirtualPrivateNetwork)",
        "ipv4=\(path.supportsIPv4)",
        "ipv6=\(path.supportsIPv6)",
        "gateway=\(path.gateway?.description ?? "-")",
    ].joined(separator: " ")
}

/// Whether every `nameserver` line of /etc/resolv.conf names loopback (and there is at least one).
func resolverIsLoopbackOnly() -> Bool {
    guard let file = fopen("/etc/resolv.conf", "r") else { return false }
    defer { fclose(file) }
    var servers: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
        let fields = String(cString: line).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        if fields.count >= 2, fields[0] == "nameserver" { servers.append(String(fields[1])) }
    }
    return !servers.isEmpty && servers.allSatisfy { $0 == "127.0.0.1" || $0 == "::1" }
}

var cellular: Set<String> = []
var watches: [(label: String, target: ReachabilityTarget)] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--cellular" {
        guard let name = arguments.popFirst() else { fail("--cellular needs an interface name") }
        cellular.insert(name)
        continue
    }
    if argument == "--loopback-resolver-only" {
        guard resolverIsLoopbackOnly() else { fail("/etc/resolv.conf names a resolver other than loopback") }
        continue
    }
    guard let equals = argument.firstIndex(of: "=") else { fail("expected LABEL=TARGET, got \(argument)") }
    let label = String(argument[..<equals])
    let target = argument[argument.index(after: equals)...]
    if target == "default" {
        watches.append((label, .defaultRoute))
    } else if target.hasPrefix("address:") {
        guard let address = IPAddress(String(target.dropFirst("address:".count))) else { fail("bad address \(target)") }
        watches.append((label, .address(address)))
    } else if target.hasPrefix("host:") {
        watches.append((label, .host(String(target.dropFirst("host:".count)))))
    } else {
        fail("unknown target \(target)")
    }
}

var configuration = NetlinkReachabilityMonitor.Configuration()
configuration.classifier = NamedCellular(names: cellular)
configuration.diagnostics = Diagnostics(handler: StandardErrorDiagnostics())
var monitors: [NetlinkReachabilityMonitor] = []
for (label, target) in watches {
    let monitor = NetlinkReachabilityMonitor(target: target, configuration: configuration)
    let paths = monitor.paths()
    Task {
        for await path in paths {
            emit(line(label, path), to: 1)
        }
    }
    monitor.startMonitoring()
    monitors.append(monitor)
}

let started = monitors
DispatchQueue.global().async {
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    for monitor in started { monitor.stopMonitoring() }
    exit(0)
}
dispatchMain()

/// Writes every diagnostic entry to standard error, where the integration test reads it.
struct StandardErrorDiagnostics: DiagnosticHandler {
    var minimumLevel: DiagnosticLevel { .trace }

    func handle(_ entry: DiagnosticEntry) {
        emit("diagnostic: \(entry.metadata["kind"] ?? "?"): \(entry.message)", to: 2)
    }
}
