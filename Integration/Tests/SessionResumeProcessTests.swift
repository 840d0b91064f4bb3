import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import Foundation
import Testing

/// Downloads that outlive the process that started them, over libcurl and nginx: each step runs in
/// a `CourierDownloadHelper` process of its own, so resuming can only go through the disk.
///
/// The files are served from `/slow/`, throttled after 256 KiB unless the request has `Range`, so
/// the first process is reliably mid-way when it stops; it stops on its own progress (a cancel or a
/// `SIGKILL` it sends itself once 512 KiB arrived), never after a guessed delay.
@Suite struct SessionResumeProcessTests {
    static let helper: String? = CLIProcess.binary.map {
        URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("CourierDownloadHelper").path
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }

    static var hasServer: Bool { CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil }
    static let stopAfter = 512 << 10

    func runHelper(_ arguments: [String]) async throws -> CLIResult {
        let helper = try #require(Self.helper, "CourierDownloadHelper is not built next to the tests")
        return try await runHelperProcess(helper, arguments, timeout: .seconds(60))
    }

    /// Runs `body` with a 3 MiB file in nginx's folder and a work folder, both removed afterwards.
    func withServedFile(_ body: (ServedFile, String) async throws -> Void) async throws {
        let served = try ServedFile(size: 3 << 20)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("courier-resume-\(UUID().uuidString)")
            .path
        defer {
            served.remove()
            try? FileManager.default.removeItem(atPath: work)
        }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try await body(served, work)
    }

    /// Has a helper process cancel its download of `served` mid-way and write the resume data to
    /// `resumeFile`; returns the offset it stopped at.
    func cancelMidway(_ served: ServedFile, resumeFile: String) async throws -> Int {
        let cancelled = try await runHelper(["cancel-after", served.slowURL, "\(Self.stopAfter)", resumeFile])
        let line = cancelled.outputText.split(separator: "\n").first { $0.hasPrefix("cancelled offset=") }
        return try #require(
            line.flatMap { Int($0.dropFirst("cancelled offset=".count)) },
            "\(cancelled.outputText)\(cancelled.standardError)"
        )
    }

    @Test(.enabled(if: hasServer, "TEST_HTTP_URL or TEST_WWW_DIR not set"))
    func aDownloadCancelledInOneProcessIsResumedByAnotherByteForByte() async throws {
        try await withServedFile { served, work in
            // Given: one process cancels its download mid-way and writes the resume data
            let offset = try await cancelMidway(served, resumeFile: work + "/resume")

            // When: another process goes on from that file
            let resumed = try await runHelper(["resume", work + "/resume", work + "/file.bin"])

            // Then: a 206 from the offset, and the server's bytes exactly
            #expect(offset >= Self.stopAfter && offset < 3 << 20)
            #expect(resumed.outputText == "status=206\n", "\(resumed.standardError)")
            #expect(try filesHaveSameContents(work + "/file.bin", served.path))
        }
    }

    @Test(.enabled(if: hasServer, "TEST_HTTP_URL or TEST_WWW_DIR not set"))
    func aProcessKilledMidDownloadIsRecoveredFromItsResumeRecordByAnother() async throws {
        try await withServedFile { served, work in
            // Given: a process killed with SIGKILL mid-download, leaving a partial file and its record
            let partial = work + "/file.bin.part"
            let record = DownloadOptions.resumeRecordPath(forPartialFile: partial)
            let crashed = try await runHelper(["crash-after", served.slowURL, partial, "\(Self.stopAfter)"])
            let left = try FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int ?? 0

            // When: a new process recovers the download from the record
            let recovered = try await runHelper(["recover", record, work + "/file.bin"])

            // Then: it resumed from the partial file's size, the file is whole, and nothing is left over
            #expect(crashed.status == SIGKILL, "\(crashed.standardError)")
            #expect(left >= Self.stopAfter && left < 3 << 20)
            #expect(recovered.outputText == "recovered offset=\(left)\nstatus=206\n", "\(recovered.standardError)")
            #expect(try filesHaveSameContents(work + "/file.bin", served.path))
            #expect(!FileManager.default.fileExists(atPath: partial))
            #expect(!FileManager.default.fileExists(atPath: record))
        }
    }

    @Test(.enabled(if: hasServer, "TEST_HTTP_URL or TEST_WWW_DIR not set"))
    func aFileChangedOnTheServerBetweenTheProcessesIsDownloadedAfresh() async throws {
        try await withServedFile { served, work in
            // Given: a download cancelled mid-way, then a new version of the file on the server
            _ = try await cancelMidway(served, resumeFile: work + "/resume")
            // Another size, so the ETag (modification time and size) differs even within the same second.
            try served.replace(size: (3 << 20) + 4096)

            // When
            let resumed = try await runHelper(["resume", work + "/resume", work + "/file.bin"])

            // Then: If-Range failed, the 200 restarted the file, and it is the new version only
            #expect(resumed.outputText == "status=200\n", "\(resumed.standardError)")
            #expect(try filesHaveSameContents(work + "/file.bin", served.path))
        }
    }
}

/// A file of seeded random bytes in nginx's folder, so that bytes spliced at the wrong offset, or
/// from another version, never compare equal.
struct ServedFile {
    let name = "resume-\(UUID().uuidString).bin"
    let path: String
    let slowURL: String

    init(size: Int) throws {
        let www = try #require(CurlTestServers.wwwDirectory)
        let base = try #require(CurlTestServers.http)
        path = www + "/" + name
        slowURL = base.adding("/slow/" + name).absoluteString
        try replace(size: size)
    }

    /// Puts a new version in place by rename, as a deployment would.
    func replace(size: Int) throws {
        var random = SeededRandom(seed: UInt64(size))
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            withUnsafeBytes(of: random.next()) { word in
                for offset in 0..<min(8, size - index) { bytes[index + offset] = word[offset] }
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
