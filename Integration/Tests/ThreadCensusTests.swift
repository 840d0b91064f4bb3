import Foundation
import Testing

/// The threads a running client starts are the ones the article "Threading and backpressure" names.
///
/// `CourierThreadCensus` starts a client doing requests with its events listened to, a netlink
/// reachability monitor and an image downloader, then prints the names of its threads; it runs as
/// a process of its own because Swift Testing runs every test, and their threads, in this one. The
/// threads Courier names (the `courier` prefix) must each be in the article's thread table, and
/// every thread in the table must be running there. The other threads (the main thread with the
/// process's name, Dispatch's workers with their queues' names) are the runtime's and are ignored.
@Suite struct ThreadCensusTests {
    static let census: String? = CLIProcess.binary.map {
        URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("CourierThreadCensus").path
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }

    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Modules/Courier/Courier.docc/ThreadingAndBackpressure.md")

    /// How the names of Courier's own threads begin.
    static let prefix = "courier"

    /// The thread names in the first column of the table under `### Threads`.
    static func tableThreadNames(in article: String) -> [String] {
        var inSection = false
        var names: [String] = []
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line == "### Threads"
                continue
            }
            guard inSection, line.hasPrefix("|") else { continue }
            let cell = line.dropFirst().prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
            guard cell.count > 2, cell.hasPrefix("`"), cell.hasSuffix("`") else { continue }  // header, rule
            names.append(String(cell.dropFirst().dropLast()))
        }
        return names
    }

    static func articleText() throws -> String {
        try String(contentsOf: article, encoding: .utf8)
    }

    @Test func theArticleNamesEachThreadWithThePrefixWithinLinuxsFifteenBytes() throws {
        let names = Self.tableThreadNames(in: try Self.articleText())
        #expect(names == ["courier-curl", "courier-netlink"])
        for name in names {
            #expect(name.hasPrefix("\(Self.prefix)-"), "\(name)")
            // pthread_setname_np rejects a longer name, and the thread would keep its creator's.
            #expect(name.utf8.count <= 15, "\(name)")
        }
    }

    @Test func readsOnlyTheThreadTableOfTheArticle() {
        let text = """
            ### Threads

            | Thread | Owner |
            | --- | --- |
            | `courier-a` | one |
            | `courier-b` | two |

            ### Dispatch queues

            | Label | Owner |
            | --- | --- |
            | `courier.queue` | three |
            """
        #expect(Self.tableThreadNames(in: text) == ["courier-a", "courier-b"])
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func theThreadsARunningClientStartsAreTheOnesTheArticleNames() async throws {
        let census = try #require(Self.census, "CourierThreadCensus is not built next to the tests")
        let url = try #require(CurlTestServers.http)
        let listed = Set(Self.tableThreadNames(in: try Self.articleText()))
        try #require(!listed.isEmpty, "no thread table in \(Self.article.path)")

        let result = try await runHelperProcess(census, [url.absoluteString], timeout: .seconds(120))
        try #require(result.status == 0, "the census failed: \(result.standardError)")
        let running = Set(
            result.outputText.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("thread=") else { return nil }
                return line.dropFirst("thread=".count).components(separatedBy: " count=").first
            }
        )
        try #require(!running.isEmpty, "the census printed no threads: \(result.outputText)")

        let courierThreads = running.filter { $0.hasPrefix(Self.prefix) }
        #expect(
            courierThreads.subtracting(listed).isEmpty,
            "threads the article does not name: \(courierThreads.subtracting(listed).sorted())"
        )
        #expect(
            listed.subtracting(running).isEmpty,
            "threads the article names that do not run: \(listed.subtracting(running).sorted()); running: \(running.sorted())"
        )
    }
}
