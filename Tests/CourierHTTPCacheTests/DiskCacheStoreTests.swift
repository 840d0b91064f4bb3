import CourierDiagnostics
import CourierDiskCache
import CourierHTTP
import CourierHTTPCache
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@Suite struct DiskCacheStoreTests {
    private let url = URL(string: "https://api.example.com/report")!

    private func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-http-cache-\(UUID().uuidString)").path
    }

    private func sample(body: String = "report body") throws -> HTTPCacheEntry {
        HTTPCacheEntry(
            response: HTTPResponse(
                status: .ok,
                headers: try HTTPHeaders([
                    ("ETag", "\"r1\""), ("Cache-Control", "max-age=60"), ("X-Two", "a"), ("X-Two", "b"),
                ]),
                url: url,
                version: .http2
            ),
            body: Data(body.utf8),
            requestTime: Date(timeIntervalSince1970: 1_700_000_000.25),
            responseTime: Date(timeIntervalSince1970: 1_700_000_001.5),
            varyingRequestFields: [.init(name: "Accept", value: "text/csv"), .init(name: "X-Absent", value: nil)]
        )
    }

    @Test func anEntrySurvivesReopeningTheStore() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entry = try sample()
        await DiskCacheStore(bytes: try DiskByteStore(directory: directory)).store(entry, forKey: "GET \(url)")

        let reopened = DiskCacheStore(bytes: try DiskByteStore(directory: directory))
        #expect(await reopened.entry(forKey: "GET \(url)") == entry)
        #expect(await reopened.entry(forKey: "HEAD \(url)") == nil)
    }

    @Test func aTruncatedEntryIsAMissAndIsRemoved() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = DiskCacheStore(bytes: try DiskByteStore(directory: directory))
        await store.store(try sample(), forKey: "k")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        let path = directory + "/" + (try #require(files.first))
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        try full.prefix(full.count - 5).write(to: URL(fileURLWithPath: path))

        #expect(await store.entry(forKey: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func bytesThatAreNotAnEntryAreAMissAndAreRemoved() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = try DiskByteStore(directory: directory)
        let handler = CollectingDiagnosticHandler(minimumLevel: .debug)
        try bytes.store(Data("CHC1 but nothing after".utf8), forKey: "k")
        let store = DiskCacheStore(bytes: bytes, diagnostics: Diagnostics(handler: handler))

        #expect(await store.entry(forKey: "k") == nil)
        #expect(bytes.value(forKey: "k") == nil)
        #expect(handler.entries.map(\.message) == ["an HTTP cache entry could not be read and was removed"])
    }

    @Test func theStoreStaysWithinItsSizeLeastRecentlyUsedFirst() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entry = try sample(body: String(repeating: "x", count: 4000))
        let bytes = try DiskByteStore(
            directory: directory,
            configuration: .init(sizeLimit: 10_000, sizeAfterSweep: 9_000)
        )
        let store = DiskCacheStore(bytes: bytes)
        await store.store(entry, forKey: "a")
        await store.store(entry, forKey: "b")
        await store.store(entry, forKey: "c")
        #expect(await store.entry(forKey: "a") == nil)
        #expect(await store.entry(forKey: "c") == entry)
        #expect(bytes.currentSize() <= 10_000)
    }

    @Test func aSessionRevalidatesFromADiskStoreOpenedAgain() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(
                status: 200,
                headers: ["Cache-Control": "max-age=60", "ETag": "\"r1\""],
                body: Data("csv".utf8)
            ),
            times: 1
        )
        transport.stub(matching: { $0.headers["If-None-Match"] == "\"r1\"" }, reply: .init(status: 304))

        func session() throws -> SessionManager {
            var configuration = SessionConfiguration()
            configuration.cache = HTTPCache(
                store: DiskCacheStore(bytes: try DiskByteStore(directory: directory)),
                clock: clock
            )
            return SessionManager(transport: transport, configuration: configuration)
        }
        _ = try await session().response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        clock.advance(by: .seconds(120))
        let revalidated = try await session().response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())

        #expect(revalidated.cacheDisposition == .revalidated)
        #expect(revalidated.data == Data("csv".utf8))
        #expect(revalidated.response?.status.code == 200)
    }
}
