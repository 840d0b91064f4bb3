import Foundation
import Testing

/// A host name that cannot be resolved fails promptly with the name-resolution category, measured
/// where no DNS can answer: in a network namespace of the test's own, with only `lo` up and a
/// `resolv.conf` that points at 127.0.0.1:53, where nothing listens (so each query is refused at
/// once). `ip netns exec` bind-mounts `/etc/netns/<name>/resolv.conf` over `/etc/resolv.conf` for
/// the command it runs. Nothing but loopback inside that namespace is ever contacted.
@Suite struct NameResolutionTests {
    static let ipTool = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        .enabled(if: CLIProcess.binary != nil, "no courier binary"),
        .enabled(if: ipTool != nil, "no ip tool"),
        .enabled(if: getuid() == 0, "network namespaces need root")
    )
    func unresolvableHostFailsPromptlyWithTheNameResolutionCategory() async throws {
        let ip = try #require(Self.ipTool)
        let courier = try #require(CLIProcess.binary)
        let name = "courier-dns-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let netnsDirectory = "/etc/netns"
        let createdNetnsDirectory = !FileManager.default.fileExists(atPath: netnsDirectory)
        let configDirectory = netnsDirectory + "/" + name

        let added = try await runHelperProcess(ip, ["netns", "add", name], timeout: .seconds(20))
        guard added.status == 0 else {
            print("skipped: cannot create a network namespace: \(added.standardError)")
            try Test.cancel("network namespaces are not permitted here: \(added.standardError)")
        }
        defer {
            // Synchronous cleanup: the namespace and its resolv.conf must not outlive the test.
            let delete = Process()
            delete.executableURL = URL(fileURLWithPath: ip)
            delete.arguments = ["netns", "delete", name]
            if (try? delete.run()) != nil { delete.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: configDirectory)
            // rmdir, never a recursive removal: another test's namespace may keep its files there.
            if createdNetnsDirectory { rmdir(netnsDirectory) }
        }
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        try Data("nameserver 127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: configDirectory + "/resolv.conf"))
        let loopback = try await runHelperProcess(ip, ["netns", "exec", name, ip, "link", "set", "lo", "up"])
        guard loopback.status == 0 else {
            print("skipped: cannot run in the network namespace: \(loopback.standardError)")
            try Test.cancel("ip netns exec is not permitted here: \(loopback.standardError)")
        }

        let result = try await runHelperProcess(
            ip,
            ["netns", "exec", name, courier, "get", "http://courier-no-such-host.test/", "--no-proxy"],
            timeout: .seconds(60)
        )
        print(
            "unresolvable host in namespace \(name): exit \(result.status) after \(result.seconds) s: \(result.standardError)"
        )
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("courier: could not find the host courier-no-such-host.test"))
        #expect(result.standardOutput.isEmpty)
        #expect(result.elapsed < .seconds(5))
    }
}
