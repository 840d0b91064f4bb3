import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// The transport's limit on the fields of one response head, at its edge, against the fault
/// server's `/header-count` (a correct response whose head has exactly `count` fields).
@Suite struct CurlHeaderCountLimitTests {
    static var faultHTTP: URL? { CurlTestServers.url("FAULT_HTTP_URL") }

    private func fetch(fields: Int, limit: Int? = nil) async throws -> RecordedTransfer {
        let base = try #require(Self.faultHTTP)
        let transport = CurlTestServers.transport { configuration in
            if let limit { configuration.maximumHeaderCount = limit }
        }
        let url = base.adding("/header-count?count=\(fields)")
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return recorded
    }

    @Test(.enabled(if: faultHTTP != nil, "FAULT_HTTP_URL not set"))
    func aHeadOfTheDefaultCountIsRead() async throws {
        let recorded = try await fetch(fields: CurlTransport.Configuration.defaultMaximumHeaderCount)
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 200)
        #expect(recorded.response?.headers.count == 1_000)
    }

    @Test(.enabled(if: faultHTTP != nil, "FAULT_HTTP_URL not set"))
    func oneFieldMoreIsALimitExceeded() async throws {
        let recorded = try await fetch(fields: 1_001)
        #expect(recorded.response == nil)
        #expect(recorded.error?.category == .limitExceeded)
        #expect(recorded.error?.message == "the response head has more than 1000 header fields")
    }

    @Test(.enabled(if: faultHTTP != nil, "FAULT_HTTP_URL not set"))
    func aConfiguredCountIsHonoured() async throws {
        #expect(try await fetch(fields: 20, limit: 20).response?.status.code == 200)
        #expect(try await fetch(fields: 21, limit: 20).error?.category == .limitExceeded)
    }
}
