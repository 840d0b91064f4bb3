import Foundation
import Testing

/// `tls_byte_counter.py` with the per-run server certificate of `ci/servers` (the trust matrix runs it
/// with the fixed test PKI, by SNI): it accepts a fixed
/// number of TLS connections and reports, per connection, whether the handshake completed and how many
/// request bytes arrived, which is the server-side evidence that a rejection sent nothing.
enum TLSByteCounter {
    static let isAvailable = IntegrationEnvironment.python != nil && CurlTestServers.value("TEST_SERVER_KEY") != nil

    /// Starts the server for `connections` connections.
    static func start(connections: Int) async throws -> PythonTestServer {
        try await PythonTestServer.start(
            "tls_byte_counter.py",
            arguments: [
                "--cert", try #require(CurlTestServers.value("TEST_SERVER_CERT")),
                "--key", try #require(CurlTestServers.value("TEST_SERVER_KEY")),
                "--connections", "\(connections)",
            ]
        )
    }

    /// Waits for the server to exit and checks that the first `rejected` connections failed their
    /// handshake with no request byte and the last one, the control, delivered `GET /probe`.
    static func expectRejectionsThenControl(_ server: PythonTestServer, rejected: Int) async throws {
        let lines = try await server.output()
        let records = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        try #require(records.count == rejected + 1, "server output: \(lines)")
        for record in records.prefix(rejected) {
            #expect(record["handshake"] as? String == "failed", "\(record)")
            #expect(record["bytes"] as? Int == 0, "\(record)")
        }
        #expect(records.last?["handshake"] as? String == "ok")
        #expect(records.last?["request_line"] as? String == "GET /probe HTTP/1.1")
        #expect((records.last?["bytes"] as? Int ?? 0) > 0)
    }
}
