import Foundation

/// A network namespace that a test creates and deletes, with its own `/etc/netns/<name>/` files
/// (`ip netns exec` bind-mounts them over `/etc/hosts` and `/etc/resolv.conf` for the command it runs).
///
/// Everything the test changes goes through `ip -n <name>`: links, addresses and routes of the
/// machine itself are never touched. ``with(prefix:hosts:_:)`` deletes the namespace on every path,
/// awaiting `ip netns delete` as a child process (nothing blocks a thread of the cooperative pool).
final class TestNetworkNamespace: Sendable {
    static let ipTool = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let name: String
    let ip: String
    let configDirectory: String
    private let createdNetnsDirectory: Bool

    /// Runs `body` with a new namespace and deletes the namespace afterwards, whether `body` threw or not.
    static func with<Result>(
        prefix: String,
        hosts: String,
        _ body: (TestNetworkNamespace) async throws -> Result
    ) async throws -> Result {
        let namespace = try await TestNetworkNamespace(prefix: prefix, hosts: hosts)
        do {
            let result = try await body(namespace)
            await namespace.delete()
            return result
        } catch {
            await namespace.delete()
            throw error
        }
    }

    /// Creates the namespace `<prefix>-<pid>-<random>` with `lo` up and the given `hosts` file; its
    /// `resolv.conf` names 127.0.0.1, where nothing listens, so a name missing from `hosts` fails at
    /// once without leaving the namespace.
    private init(prefix: String, hosts: String) async throws {
        guard let ip = Self.ipTool else { throw ToolError(message: "no ip tool") }
        self.ip = ip
        name = "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        configDirectory = "/etc/netns/\(name)"
        createdNetnsDirectory = !FileManager.default.fileExists(atPath: "/etc/netns")
        let added = try await runHelperProcess(ip, ["netns", "add", name], timeout: .seconds(20))
        guard added.status == 0 else {
            throw ToolError(message: "ip netns add \(name): \(added.standardError)")
        }
        do {
            try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
            try Data(hosts.utf8).write(to: URL(fileURLWithPath: configDirectory + "/hosts"))
            try Data("nameserver 127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: configDirectory + "/resolv.conf"))
            try await run("link", "set", "lo", "up")
        } catch {
            await delete()
            throw error
        }
    }

    /// Runs `ip -n <name> ARGUMENTS…` and throws with its error output when it fails.
    func run(_ arguments: String...) async throws {
        let result = try await runHelperProcess(ip, ["-n", name] + arguments, timeout: .seconds(20))
        guard result.status == 0 else {
            throw ToolError(message: "ip -n \(name) \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }

    /// Appends a line to the namespace's `hosts`, in place: `ip netns exec` bind-mounted this very
    /// file, so a replaced file would not be seen by a process already running.
    func appendHost(_ line: String) throws {
        guard let file = FileHandle(forWritingAtPath: configDirectory + "/hosts") else {
            throw ToolError(message: "cannot open \(configDirectory)/hosts")
        }
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Deletes the namespace (its veth pairs go with it) and its files.
    private func delete() async {
        let result = try? await runHelperProcess(ip, ["netns", "delete", name], timeout: .seconds(20))
        if result?.status != 0 { print("ip netns delete \(name) failed: \(result?.standardError ?? "did not run")") }
        try? FileManager.default.removeItem(atPath: configDirectory)
        // rmdir, never a recursive removal: another test's namespace may keep its files there.
        if createdNetnsDirectory { rmdir("/etc/netns") }
    }
}
