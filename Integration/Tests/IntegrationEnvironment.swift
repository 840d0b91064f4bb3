import Foundation

/// What `ci/servers start` set up for the integration tests, read from the environment.
///
/// `ci/test` exports these variables; a test that needs one is disabled with a reason when it is
/// missing, so a plain `swift test` on a laptop skips integration tests instead of failing them.
enum IntegrationEnvironment {
    /// A Python interpreter whose environment has the pinned test tools (werkzeug…).
    static var python: String? { ProcessInfo.processInfo.environment["COURIER_PYTHON"] }

    /// The folder of the helper scripts the integration tests run.
    static var toolsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools")
    }

    /// How many times its wall-clock bound a promptness assertion allows: 1, or what
    /// `COURIER_TEST_TIME_SCALE` says. `ci/sanitize thread` sets it: ThreadSanitizer runs the code
    /// several times slower, and its concurrency suites run side by side on two cores.
    static var timeScale: Int {
        ProcessInfo.processInfo.environment["COURIER_TEST_TIME_SCALE"].flatMap(Int.init).map { max(1, $0) } ?? 1
    }

    /// `bound`, scaled by ``timeScale``.
    static func bound(_ bound: Duration) -> Duration { bound * timeScale }
}

/// Runs a helper script under the test Python, feeding `input` on stdin.
func runPythonTool(_ script: String, arguments: [String] = [], input: Data) async throws -> CLIResult {
    guard let python = IntegrationEnvironment.python else {
        throw ToolError(message: "COURIER_PYTHON is not set")
    }
    let path = IntegrationEnvironment.toolsDirectory.appendingPathComponent(script).path
    return try await runHelperProcess(python, [path] + arguments, input: input)
}

struct ToolError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
