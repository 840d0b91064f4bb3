import Foundation

/// `chaos`: the session under faults at concurrency 256 for `COURIER_CHAOS_SECONDS` (default 60)
/// with the seed `COURIER_CHAOS_SEED` (default: drawn, and printed so that the run can be
/// repeated). Writes the download file into the servers' web root, starts the seeded fault proxy
/// (`Integration/servers/chaos_proxy.py`) in front of nginx, httpbin and the fault server, runs
/// ``ChaosClient`` in a child process of its own (so that its descriptors, threads and memory start
/// from a fresh process), and fails when the child does, or when it has not ended 2 minutes after
/// its deadline (a hang).
enum ChaosGroup {
    /// The resumable downloads' file in the web root: 1 MiB of seeded noise.
    static let blobName = "chaos-blob.bin"

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = Int(environment["COURIER_CHAOS_SECONDS"] ?? "") ?? 60
        let seed = UInt64(environment["COURIER_CHAOS_SEED"] ?? "") ?? UInt64.random(in: 1...999_999)
        let concurrency = Int(environment["COURIER_CHAOS_CONCURRENCY"] ?? "") ?? 256
        guard let python = environment["COURIER_PYTHON"], let www = environment["TEST_WWW_DIR"],
            let nginx = hostAndPort(environment["TEST_HTTP_URL"]),
            let httpbin = hostAndPort(environment["TEST_HTTPBIN_URL"]),
            let fault = hostAndPort(environment["FAULT_HTTP_URL"])
        else {
            log("chaos: FAILED: needs the ci/servers environment (COURIER_PYTHON, TEST_WWW_DIR, TEST_HTTP_URL, ...)")
            exit(2)
        }
        log("chaos: \(seconds) s at concurrency \(concurrency), seed \(seed)")

        var random = ChaosRandom(seed: seed)
        let blob = Data((0..<(1 << 17)).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } })
        try blob.write(to: URL(fileURLWithPath: www + "/" + blobName))

        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let servers = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        let script = try proxyScript(near: servers)
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("courier-chaos-proxy-\(getpid()).env")
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: python)
        proxy.arguments = [
            script, "--seed", String(seed), "--route", "nginx=\(nginx)", "--route", "httpbin=\(httpbin)",
            "--route", "fault=\(fault)", "--ready-file", ready.path,
        ]
        try proxy.run()
        let failure = runChild(
            executable: executable,
            arguments: ["child-chaos", String(seconds), String(seed), String(concurrency)],
            seconds: seconds,
            ready: ready
        )
        // The proxy logs its tally of faults as it stops.
        proxy.terminate()
        proxy.waitUntilExit()
        try? FileManager.default.removeItem(atPath: www + "/" + blobName)
        if let failure {
            // The child names its own failures (`chaos: FAILED: …`); a hang or a crash it cannot.
            log("chaos: \(failure); seed \(seed) repeats the schedule")
            exit(1)
        }
    }

    /// Waits for the proxy's ready file, runs the child with its URLs, and says what went wrong.
    static func runChild(executable: String, arguments: [String], seconds: Int, ready: URL) -> String? {
        var proxyEnvironment: [String: String] = [:]
        let waitUntil = Date().addingTimeInterval(20)
        while proxyEnvironment["CHAOS_FAULT_URL"] == nil && Date() < waitUntil {
            Thread.sleep(forTimeInterval: 0.1)
            let text = (try? String(contentsOf: ready, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { proxyEnvironment[parts[0]] = parts[1] }
            }
        }
        guard proxyEnvironment["CHAOS_FAULT_URL"] != nil else { return "FAILED: the chaos proxy did not start" }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(proxyEnvironment) { _, new in new }
        // glibc gives each new thread that allocates its own malloc arena (several MiB resident at
        // once): two arenas keep a late thread from reading as a leak in the RSS bound, while what
        // the session itself allocates and keeps still shows.
        if environment["MALLOC_ARENA_MAX"] == nil { environment["MALLOC_ARENA_MAX"] = "2" }
        child.environment = environment
        do { try child.run() } catch { return "FAILED: the child did not start: \(error)" }
        // The child judges its own hang (45 s after its deadline); this is the backstop for one
        // that cannot (a deadlock that stops its clock loop too).
        let limit = Date().addingTimeInterval(Double(seconds) + 120)
        while child.isRunning && Date() < limit { Thread.sleep(forTimeInterval: 0.5) }
        if child.isRunning {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            return "FAILED: hang: the child had not ended 2 minutes after its deadline, and was killed"
        }
        guard child.terminationReason == .exit else {
            return "FAILED: crash: the child died of signal \(child.terminationStatus)"
        }
        guard child.terminationStatus == 0 else { return "the child failed (exit status \(child.terminationStatus))" }
        return nil
    }

    /// `host:port` of a loopback server URL.
    static func hostAndPort(_ text: String?) -> String? {
        guard let text, let url = URL(string: text), let host = url.host, let port = url.port else { return nil }
        return "\(host):\(port)"
    }

    /// `Integration/servers/chaos_proxy.py`, found upwards from the executable (which lives in the
    /// benchmark package's build folder, wherever that is).
    static func proxyScript(near executable: URL) throws -> String {
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Integration/servers/chaos_proxy.py").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        if let root = ProcessInfo.processInfo.environment["COURIER_ROOT"] {
            return root + "/Integration/servers/chaos_proxy.py"
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
