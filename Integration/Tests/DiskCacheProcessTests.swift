import Foundation
import Testing

/// The disk cache across processes and environments: each case runs `CourierCacheHelper` children
/// with their own `XDG_CACHE_HOME` or `HOME` (through `env`, so the test process's environment is
/// never touched) and on one shared directory.
@Suite struct DiskCacheProcessTests {
    static let helper: String? = {
        let bundle = Bundle.main.bundleURL
        var folders = [bundle, bundle.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders += [
                executable.deletingLastPathComponent(),
                executable.deletingLastPathComponent().deletingLastPathComponent(),
            ]
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent())
        return folders.map { $0.appendingPathComponent("CourierCacheHelper").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs the helper under `env` with `environment` changes (`-u NAME` unsets).
    func runHelper(_ environment: [String], _ arguments: [String]) async throws -> CLIResult {
        let helper = try #require(Self.helper, "CourierCacheHelper is not built next to the tests")
        return try await runHelperProcess("/usr/bin/env", environment + [helper] + arguments, timeout: .seconds(60))
    }

    func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-xdg-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func readsXDGCacheHomeThenHome() async throws {
        let xdg = try temporaryDirectory()
        let home = try temporaryDirectory()
        defer { for path in [xdg, home] { try? FileManager.default.removeItem(atPath: path) } }

        let fromXDG = try await runHelper(["XDG_CACHE_HOME=\(xdg)", "HOME=\(home)"], ["where", "com.example"])
        let relativeXDG = try await runHelper(["XDG_CACHE_HOME=relative", "HOME=\(home)"], ["where", "com.example"])
        let fromHome = try await runHelper(["-u", "XDG_CACHE_HOME", "HOME=\(home)"], ["where", "com.example"])
        let neither = try await runHelper(["-u", "XDG_CACHE_HOME", "-u", "HOME"], ["where", "com.example"])

        #expect(fromXDG.outputText == "\(xdg)/com.example\n")
        #expect(relativeXDG.outputText == "\(home)/.cache/com.example\n")
        #expect(fromHome.outputText == "\(home)/.cache/com.example\n")
        #expect(neither.status == 2)
        #expect(neither.standardError.contains("neither XDG_CACHE_HOME nor HOME is set"))
    }

    @Test func anImageStoredByOneProcessIsReadByAnother() async throws {
        let xdg = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: xdg) }
        let environment = ["XDG_CACHE_HOME=\(xdg)"]

        let put = try await runHelper(environment, ["image-put", "com.example.images", "photo-7", "33", "21"])
        let get = try await runHelper(environment, ["image-get", "com.example.images", "photo-7"])
        let other = try await runHelper(environment, ["image-get", "com.example.images", "photo-8"])

        #expect(put.outputText == "stored in \(xdg)/com.example.images\n", "\(put.standardError)")
        #expect(get.outputText == "33x21 scale=2.0 intact=true\n", "\(get.standardError)")
        #expect(other.outputText == "miss\n")
    }

    @Test func aTruncatedEntryIsAMissForTheNextProcessAndIsRemoved() async throws {
        let xdg = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: xdg) }
        let environment = ["XDG_CACHE_HOME=\(xdg)"]
        _ = try await runHelper(environment, ["image-put", "images", "photo", "64", "64"])
        let folder = xdg + "/images"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".cache") }
        )
        let file = URL(fileURLWithPath: folder + "/" + name)
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count / 2).write(to: file)

        let get = try await runHelper(environment, ["image-get", "images", "photo"])

        #expect(get.status == 0)
        #expect(get.outputText == "miss\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func twoProcessesWritingReadingAndSweepingOneStoreSeeOnlyWholeValues() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 16 keys of 0.5 to 2.5 KiB against a 12 KiB limit: both processes sweep often, and their
        // sweeps meet on the lock.
        async let first = runHelper([], ["hammer", folder, "1", "2000", "12288"])
        async let second = runHelper([], ["hammer", folder, "2", "2000", "12288"])
        let results = try await [first, second]

        for result in results {
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.outputText.hasPrefix("bad=0 hits="), "\(result.outputText)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty)
        let sizes = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".cache") }
            .map { try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int ?? 0 }
        #expect(sizes.reduce(0, +) <= 12288 + 2 * 2600, "a store may end one write per process over its limit")
    }
}
