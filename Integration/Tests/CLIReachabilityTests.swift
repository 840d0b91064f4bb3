import Foundation
import Testing

/// `courier reachability`: the monitor's first status, and `--watch --changes N`. Only loopback
/// targets and the default route are asked about; the kernel answers from its routing table and no
/// packet is sent.
@Suite struct CLIReachabilityTests {
    static var ready: Bool { CLIProcess.binary != nil }

    @Test(.enabled(if: ready, "no courier binary"))
    func printsTheStatusAndThePathForTheDefaultRouteAnAddressAndAHost() async throws {
        let route = try await CLIProcess.run(["reachability"])
        #expect(route.status == 0, "\(route.standardError)")
        #expect(route.outputText.hasPrefix("default status="), "\(route.outputText)")
        #expect(route.outputText.split(separator: "\n").count == 1)

        let address = try await CLIProcess.run(["reachability", "127.0.0.1"])
        #expect(address.status == 0, "\(address.standardError)")
        #expect(address.outputText.hasPrefix("127.0.0.1 status="), "\(address.outputText)")
        #expect(address.outputText.contains("interface=lo kind=loopback"), "\(address.outputText)")

        let host = try await CLIProcess.run(["reachability", "localhost"])
        #expect(host.outputText.hasPrefix("localhost status="), "\(host.outputText)")
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func watchStopsAfterTheChangesAskedForAndUsageErrorsExit1() async throws {
        let watched = try await CLIProcess.run(["reachability", "127.0.0.1", "--watch", "--changes", "1"])
        #expect(watched.status == 0, "\(watched.standardError)")
        #expect(watched.outputText.split(separator: "\n").count == 1)

        let misuse = try await CLIProcess.run(["reachability", "--changes", "2"])
        #expect(misuse.status == 1)
        #expect(misuse.standardError.contains("usage: courier reachability"))
        let help = try await CLIProcess.run(["--help"])
        #expect(help.outputText.contains("reachability [HOST|ADDRESS] [--watch]"))
    }
}
