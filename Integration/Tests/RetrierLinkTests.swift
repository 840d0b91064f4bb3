import CourierTestSupport
import Foundation
import Testing

/// The offline-aware retrier for real: `courier --wait-for-network` in a namespace whose only link is
/// down, a server in a second namespace at the other end of the link; the link comes back while the
/// command waits, and the one retry succeeds. Both namespaces are the test's own and deleted after.
@Suite(.serialized) struct RetrierLinkTests {
    @Test(.enabled(if: getuid() == 0, "network namespaces need root"))
    func aRequestToAnUnreachableHostWaitsForTheLinkAndSucceedsOnItsOneRetry() async throws {
        let courier = try #require(CLIProcess.binary, "no courier binary")
        let python = IntegrationEnvironment.python ?? "/usr/bin/python3"
        let hosts = "127.0.0.1 localhost\n"
        try await TestNetworkNamespace.with(prefix: "courier-client", hosts: hosts) { client in
            try await TestNetworkNamespace.with(prefix: "courier-server", hosts: hosts) { server in
                // client veth0 10.98.0.1 (down) <-> server veth1 10.98.0.2 (up)
                try await client.run(
                    "link",
                    "add",
                    "veth0",
                    "type",
                    "veth",
                    "peer",
                    "name",
                    "veth1",
                    "netns",
                    server.name
                )
                try await client.run("addr", "add", "10.98.0.1/24", "dev", "veth0")
                try await server.run("addr", "add", "10.98.0.2/24", "dev", "veth1")
                try await server.run("link", "set", "veth1", "up")

                let web = NamespaceChild(
                    client.ip,
                    ["netns", "exec", server.name, python, "-m", "http.server", "8089", "--bind", "10.98.0.2"]
                )
                try web.start(output: FileHandle.nullDevice)
                defer { web.process.terminate() }
                // Ready once the server accepts a connection inside its own namespace.
                var ready = false
                for _ in 0..<100 where !ready {
                    let probe = try await runHelperProcess(
                        client.ip,
                        [
                            "netns", "exec", server.name, python, "-c",
                            "import socket; socket.create_connection(('10.98.0.2', 8089), 1)",
                        ]
                    )
                    ready = probe.status == 0
                    if !ready { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(ready, "the server in the namespace did not start")

                let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).out")
                try Data().write(to: outputPath)
                defer { try? FileManager.default.removeItem(at: outputPath) }
                let request = NamespaceChild(
                    client.ip,
                    [
                        "netns", "exec", client.name, courier, "--wait-for-network", "--timeout=30", "-p", "hm",
                        "http://10.98.0.2:8089/",
                    ]
                )
                try request.start(output: try FileHandle(forWritingTo: outputPath))
                // The command says when it starts waiting; only then does the link come back.
                var waiting = false
                for await line in request.errorLines where line.contains("waiting for the network") {
                    waiting = true
                    break
                }
                #expect(waiting, "courier never said it was waiting")
                try await client.run("link", "set", "veth0", "up")
                let status = await request.exit(within: .seconds(40))
                let output = String(decoding: (try? Data(contentsOf: outputPath)) ?? Data(), as: UTF8.self)
                #expect(status == 0, "\(output)")
                #expect(output.contains("HTTP/1.0 200") || output.contains("HTTP/1.1 200"), "\(output)")
                #expect(output.contains("retries       1"), "\(output)")
            }
        }
    }
}

/// A child whose standard error is read line by line as it arrives.
final class NamespaceChild: Sendable {
    let process = Process()
    let errorLines: AsyncStream<String>
    private let errorContinuation: AsyncStream<String>.Continuation
    private let accumulator = LineAccumulator()
    private let exited = CompletionSignal()

    init(_ executable: String, _ arguments: [String]) {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        errorLines = lines
        errorContinuation = continuation
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = CLIProcess.childEnvironment
        process.standardInput = FileHandle.nullDevice
    }

    func start(output: FileHandle) throws {
        let pipe = Pipe()
        process.standardOutput = output
        process.standardError = pipe
        let continuation = errorContinuation
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let lines = self.accumulator.append(data)
            for line in lines { continuation.yield(line) }
        }
        try process.run()
    }

    /// The exit status, or `nil` after terminating a child still running at `limit`.
    func exit(within limit: Duration) async -> Int32? {
        let process = self.process
        let watchdog = Task { () -> Bool in
            do { try await Task.sleep(for: limit) } catch { return false }
            guard process.isRunning else { return false }
            process.terminate()
            return true
        }
        await exited.wait()
        watchdog.cancel()
        return await watchdog.value ? nil : process.terminationStatus
    }
}
