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
