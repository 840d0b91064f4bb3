import Foundation

/// The built `courier` executable, run as a process of its own: peak-RSS figures (`--report-rss`)
/// then cover one transfer in a fresh process and nothing of the test runner.
enum CLIProcess {
    /// The `courier` binary: `COURIER_BIN` when set, otherwise the one SwiftPM built next to the test
    /// bundle (`swift build --build-tests` builds every product into the same folder), otherwise
    /// `.build/debug/courier` under the package root.
    static let binary: String? = locateBinary()

    private static func locateBinary() -> String? {
        let files = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["COURIER_BIN"], !explicit.isEmpty {
            guard files.isExecutableFile(atPath: explicit) else {
                print("COURIER_BIN=\(explicit) is not an executable file")
                return nil
            }
            return explicit
        }
        var folders: [URL] = []
        let bundle = Bundle.main.bundleURL
        folders += [bundle, bundle.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders += [
                executable.deletingLastPathComponent(),
                executable.deletingLastPathComponent().deletingLastPathComponent(),
            ]
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent())
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("courier").path
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                files.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        print("no courier binary next to the test bundle (\(bundle.path)) or in \(packageRoot.path)/.build/debug")
        return nil
    }

    /// The environment for a child: the test's, without proxy variables, so loopback transfers go
    /// straight to the servers.
    static var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
            environment[name] = nil
        }
        return environment
    }

    /// Runs `courier` with `arguments`; stdin is `/dev/null` unless `input` is given, and
    /// `environment` adds to (or replaces) the child's variables.
    static func run(
        _ arguments: [String],
        input: Data? = nil,
        inputIsPipe: Bool = false,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(120)
    ) async throws -> CLIResult {
        guard let binary else { throw ToolError(message: "no courier binary") }
        return try await runHelperProcess(
            binary,
            arguments,
            input: input,
            inputIsPipe: inputIsPipe,
            environment: environment,
            timeout: timeout
        )
    }
}

/// The outcome of a child process.
struct CLIResult {
    let status: Int32
    let standardOutput: Data
    let standardError: String
    let elapsed: Duration

    var outputText: String { String(decoding: standardOutput, as: UTF8.self) }

    /// The `peak_rss_mib=N` figure `--report-rss` printed, in MiB.
    var peakRSSMiB: Double? {
        for line in standardError.split(separator: "\n") where line.hasPrefix("peak_rss_mib=") {
            return Double(line.dropFirst("peak_rss_mib=".count))
        }
        return nil
    }

    var seconds: Double {
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Runs `executable` with output in temporary files (a chatty child never blocks on a pipe) and
/// awaits its exit through a continuation; a child still running after `timeout` is terminated, so
/// a hang fails the test instead of stalling the run. `input` is a regular file on stdin, or with
/// `inputIsPipe` written into a pipe.
func runHelperProcess(
    _ executable: String,
    _ arguments: [String],
    input: Data? = nil,
    inputIsPipe: Bool = false,
    environment: [String: String] = [:],
    timeout: Duration = .seconds(120)
) async throws -> CLIResult {
    let files = FileManager.default
    let base = files.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)")
    let inputFile = base.appendingPathExtension("in")
    let outputFile = base.appendingPathExtension("out")
    let errorFile = base.appendingPathExtension("err")
    try (input ?? Data()).write(to: inputFile)
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    defer {
        for file in [inputFile, outputFile, errorFile] { try? files.removeItem(at: file) }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = CLIProcess.childEnvironment.merging(environment) { _, given in given }
    let pipe = inputIsPipe ? Pipe() : nil
    if let pipe {
        process.standardInput = pipe
    } else {
        process.standardInput = input == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: inputFile)
    }
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    let clock = ContinuousClock()
    let start = clock.now
    let watchdog = Task {
        try await Task.sleep(for: timeout)
        if process.isRunning { process.terminate() }
    }
    defer { watchdog.cancel() }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
            if let pipe {
                let bytes = input ?? Data()
                Thread.detachNewThread {
                    // A child that exits without reading its input (a command that ignores stdin)
                    // closes the pipe: the write must fail with EPIPE, not raise SIGPIPE, whose
                    // default action ends the whole test process. SIGPIPE goes to the writing
                    // thread, so blocking it on this thread alone is enough.
                    var pipeSignal = sigset_t()
                    sigemptyset(&pipeSignal)
                    sigaddset(&pipeSignal, SIGPIPE)
                    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                    try? pipe.fileHandleForWriting.write(contentsOf: bytes)
                    try? pipe.fileHandleForWriting.close()
                }
            }
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    return CLIResult(
        status: process.terminationStatus,
        standardOutput: try Data(contentsOf: outputFile),
        standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
        elapsed: clock.now - start
    )
}
