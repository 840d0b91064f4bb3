import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// Many concurrent requests to one HTTP/2 origin share a connection: libcurl multiplexes them as
/// streams instead of opening a connection per request.
@Suite struct H2ConcurrencyTests {
    static let requestCount = 500
    static let connectionLimit = 4

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func fiveHundredConcurrentRequestsShareFewConnections() async throws {
        let base = try #require(CurlTestServers.https)
        let transport = CurlTestServers.transport()
        let clock = ContinuousClock()
        let start = clock.now
        let results = await withTaskGroup(of: Result<TransferResult, TransportError>.self) { group in
            for index in 0..<Self.requestCount {
                group.addTask {
                    let request = HTTPRequest(url: base.adding("/small?request=\(index)"))
                    do throws(TransportError) {
                        return .success(try await transport.startTransfer(request).collect(upTo: 1 << 16))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<TransferResult, TransportError>] = []
            for await result in group { results.append(result) }
            return results
        }
        let elapsed = clock.now - start
        await transport.shutdown()

        let successes = results.compactMap { try? $0.get() }
        let failures = results.compactMap { result -> TransportError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(failures.isEmpty, "first failure: \(failures.first.map { "\($0)" } ?? "-")")
        #expect(successes.count == Self.requestCount)
        #expect(successes.allSatisfy { $0.response.status.code == 200 && $0.body.count == 100 })
        #expect(successes.allSatisfy { $0.metrics.protocolVersion == HTTPResponse.Version.http2 })
        let ports = Set(successes.compactMap { $0.metrics.localPort })
        let opened = successes.filter { !$0.metrics.reusedConnection }.count
        print(
            "\(Self.requestCount) concurrent h2 requests: \(elapsed), \(ports.count) local port(s), \(opened) new connection(s)"
        )
        #expect(!ports.isEmpty && ports.count <= Self.connectionLimit, "local ports: \(ports.sorted())")
        #expect(opened >= 1 && opened <= Self.connectionLimit)
    }
}
