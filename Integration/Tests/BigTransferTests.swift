import Foundation
import Testing

/// 1 GiB through the `courier` binary in flat memory: the download goes to a file on the transport's
/// loop thread and the upload is read lazily from a file, so peak RSS stays near the process's
/// baseline. Each runs in a `courier` process of its own, which reports its own `VmHWM`.
@Suite(.serialized) struct BigTransferTests {
    static let gibibyte: Int64 = 1 << 30
    static let peakRSSLimitMiB = 32.0

    static var ready: Bool {
        CLIProcess.binary != nil && CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil
    }

    private func size(of path: String) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? -1
    }

    @Test(
        .enabled(if: ready, "needs the servers and the courier binary"),
        .enabled(if: BigTransferSpace.directory != nil, "needs 1.5 GiB of free space")
    )
    func downloadsOneGibibyteToAFileInFlatMemory() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let directory = try #require(BigTransferSpace.directory)
        let path = directory + "/courier-big-download-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".courier-resume")
        }
        let result = try await CLIProcess.run(
            ["download", base.adding("/big-1g").absoluteString, "--to", path, "--no-proxy", "--report-rss"]
        )
        let peak = result.peakRSSMiB
        print("1 GiB download: \(result.seconds) s, peak RSS \(peak.map { "\($0)" } ?? "?") MiB")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try size(of: path) == Self.gibibyte)
        #expect(!FileManager.default.fileExists(atPath: path + ".courier-resume"))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try filesHaveSameContents(path, www + "/big-1g"))
        print("compared the whole file with the served one in \(clock.now - start)")
        #expect(try #require(peak) < Self.peakRSSLimitMiB)
    }

    @Test(
        .enabled(if: ready, "needs the servers and the courier binary"),
        .enabled(if: BigTransferSpace.directory != nil, "needs 1.5 GiB of free space")
    )
    func uploadsOneGibibyteFromAFileInFlatMemory() async throws {
        let base = try #require(CurlTestServers.http)
        let directory = try #require(BigTransferSpace.directory)
        let path = directory + "/courier-big-upload-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Every mebibyte carries its own index, so a lost, repeated or reordered block changes the hash.
        try Self.writePatternedFile(path, mebibytes: Int(Self.gibibyte >> 20))
        let expectedDigest = try await Self.sha256(of: path)
        let result = try await CLIProcess.run(
            [
                "upload", base.adding("/upload").absoluteString, "--file", path, "--method", "POST", "--no-proxy",
                "--header", "X-Upload-Digest: sha256", "--report-rss",
            ]
        )
        let peak = result.peakRSSMiB
        print("1 GiB upload: \(result.seconds) s, peak RSS \(peak.map { "\($0)" } ?? "?") MiB")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        // The sink answers with the number of body bytes it received and their SHA-256.
        #expect(result.outputText == "HTTP/1.1 200 OK\n\(Self.gibibyte) sha256=\(expectedDigest)\n")
        #expect(try #require(peak) < Self.peakRSSLimitMiB)
    }

    /// Writes `mebibytes` MiB where each mebibyte is a byte pattern led by its own index.
    private static func writePatternedFile(_ path: String, mebibytes: Int) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for index in 0..<mebibytes {
            withUnsafeBytes(of: UInt64(index).bigEndian) { block.replaceSubrange(0..<8, with: $0) }
            try handle.write(contentsOf: block)
        }
    }

    /// The SHA-256 of a file, from coreutils' `sha256sum`, as lowercase hex.
    private static func sha256(of path: String) async throws -> String {
        let output = try await runHelperProcess("/usr/bin/sha256sum", [path])
        return String(output.outputText.prefix { $0 != " " })
    }

    @Test(
        .enabled(if: ready, "needs the servers and the courier binary"),
        .enabled(if: BigTransferSpace.directory != nil, "needs 1.5 GiB of free space")
    )
    func resumesADownloadKilledMidway() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let courier = try #require(CLIProcess.binary)
        let directory = try #require(BigTransferSpace.directory)
        let path = directory + "/courier-big-resume-\(UUID().uuidString)"
        let recordPath = path + ".courier-resume"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: recordPath)
        }
        let url = base.adding("/big-1g").absoluteString

        let process = Process()
        process.executableURL = URL(fileURLWithPath: courier)
        process.arguments = ["download", url, "--to", path, "--no-proxy"]
        process.environment = CLIProcess.childEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (exits, exited) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { exited.yield($0.terminationStatus) }
        try process.run()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline, process.isRunning, (try? size(of: path)) ?? 0 < 64 << 20 {
            try await Task.sleep(for: .milliseconds(2))
        }
        kill(process.processIdentifier, SIGKILL)
        for await _ in exits { break }

        let partial = try size(of: path)
        print("killed the download after \(partial) bytes")
        try #require(partial > 0 && partial < Self.gibibyte, "the download was not interrupted midway")
        let record = try String(contentsOfFile: recordPath, encoding: .utf8)
        #expect(record.contains("\nurl=\(url)\n"), "\(record)")
        #expect(record.contains("\nlength=\(Self.gibibyte)\n"), "\(record)")
        #expect(record.contains("\netag=\""), "\(record)")

        let result = try await CLIProcess.run(["download", url, "--to", path, "--resume", "--no-proxy", "--report-rss"])
        let peak = result.peakRSSMiB
        print("1 GiB resume after \(partial) bytes: \(result.seconds) s, peak RSS \(peak.map { "\($0)" } ?? "?") MiB")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(
            result.standardError.hasPrefix(
                "courier: saved \(Self.gibibyte - partial) bytes to \(path) (resumed after \(partial) bytes)\n"
            ),
            "\(result.standardError)"
        )
        #expect(try size(of: path) == Self.gibibyte)
        #expect(!FileManager.default.fileExists(atPath: recordPath))
        #expect(try filesHaveSameContents(path, www + "/big-1g"))
        #expect(try #require(peak) < Self.peakRSSLimitMiB)
    }
}
