import CourierCurl
import CourierHTTP
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Testing

/// The trust matrix over the fixed test PKI (root → intermediate → leaf, `ci/make-test-pki`), served
/// from one TLS port by `tls_byte_counter.py`, which picks the certificate by SNI (names mapped to
/// 127.0.0.1 with the transport's resolve overrides) and reports, per connection, whether the
/// handshake completed, whether it resumed a session and how many request bytes arrived.
@Suite struct CurlTrustMatrixTests {
    static let isAvailable = IntegrationEnvironment.python != nil && CurlTestServers.value("TEST_PKI_DIR") != nil
    static let verifier = OpenSSLCertificateVerifier()

    static func pki(_ name: String) throws -> String {
        let directory = try #require(CurlTestServers.value("TEST_PKI_DIR"))
        return URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    static func certificate(_ name: String) throws -> Certificate {
        try #require(
            try verifier.certificates(fromPEM: Data(contentsOf: URL(fileURLWithPath: pki("\(name).pem")))).first
        )
    }

    /// Starts the server for `connections` connections with the matrix's names.
    static func startServer(connections: Int) async throws -> PythonTestServer {
        try await PythonTestServer.start(
            "tls_byte_counter.py",
            arguments: [
                "--pki", try #require(CurlTestServers.value("TEST_PKI_DIR")), "--default", "leaf",
                "--name", "expired.test=expired", "--name", "notyet.test=not-yet-valid",
                "--name", "a.wild.test=wildcard", "--name", "a.b.wild.test=wildcard",
                "--name", "reissued.test=leaf-reissued", "--connections", "\(connections)",
            ]
        )
    }

    /// A transport trusting the fixed root, with `evaluator` in the handshake and `host` reaching the
    /// server on `port`: a name through a resolve override, `127.0.0.2` through a connect override.
    static func transport(
        _ evaluator: any ServerTrustEvaluating,
        host: String,
        port: Int
    ) throws -> CurlTransport {
        let root = try pki("root-ca.pem")
        return CurlTestServers.transport {
            $0.tls.caFile = root
            $0.httpVersion = .http1_1
            $0.trustInstaller = OpenSSLTrustHook(evaluator: evaluator)
            if host == "127.0.0.2" {
                $0.connectOverrides = [.init(host: host, port: port, targetHost: "127.0.0.1", targetPort: port)]
            } else if host != "127.0.0.1" {
                $0.resolveOverrides = [.init(host: host, port: port, addresses: ["127.0.0.1"])]
            }
        }
    }

    static func policy(_ mode: PinningMode, _ names: [String]) throws -> SecurityPolicy {
        SecurityPolicy(pinningMode: mode, pinnedCertificates: try names.map(certificate), verifier: verifier)
    }

    /// One row: the host asked for, the policy, and the rejection reason expected (nil: accepted).
    struct Row: CustomStringConvertible {
        let host: String
        let evaluator: any ServerTrustEvaluating
        let rejection: String?
        let label: String

        var description: String { "\(label) (\(host))" }
    }

    static func rows() throws -> [Row] {
        let strict = DefaultTrustEvaluator()
        let expired = "certificate chain is not trusted: certificate has expired (code 10)"
        let notYetValid = "certificate chain is not trusted: certificate is not yet valid (code 9)"
        let unpinned = "certificate chain does not verify against the pinned certificates"
        return [
            Row(host: "api.test", evaluator: strict, rejection: nil, label: "leaf by name"),
            Row(host: "expired.test", evaluator: strict, rejection: expired, label: "expired"),
            Row(host: "notyet.test", evaluator: strict, rejection: notYetValid, label: "not yet valid"),
            Row(
                host: "wrong.test",
                evaluator: strict,
                rejection: "certificate is not valid for host wrong.test",
                label: "wrong host"
            ),
            Row(host: "127.0.0.1", evaluator: strict, rejection: nil, label: "IP SAN"),
            Row(
                host: "127.0.0.2",
                evaluator: strict,
                rejection: "certificate is not valid for host 127.0.0.2",
                label: "IP not in the SAN"
            ),
            Row(host: "a.wild.test", evaluator: strict, rejection: nil, label: "wildcard"),
            Row(
                host: "a.b.wild.test",
                evaluator: strict,
                rejection: "certificate is not valid for host a.b.wild.test",
                label: "wildcard covers one label only"
            ),
            Row(host: "api.test", evaluator: try policy(.certificate, ["leaf"]), rejection: nil, label: "pin leaf"),
            Row(
                host: "api.test",
                evaluator: try policy(.certificate, ["intermediate-ca"]),
                rejection: nil,
                label: "pin intermediate"
            ),
            Row(host: "api.test", evaluator: try policy(.certificate, ["root-ca"]), rejection: nil, label: "pin root"),
            Row(
                host: "api.test",
                evaluator: try policy(.certificate, ["other-name"]),
                rejection: unpinned,
                label: "pin another leaf"
            ),
            Row(host: "api.test", evaluator: try policy(.publicKey, ["leaf"]), rejection: nil, label: "key pin leaf"),
            Row(
                host: "api.test",
                evaluator: try policy(.publicKey, ["intermediate-ca"]),
                rejection: nil,
                label: "key pin intermediate"
            ),
            Row(
                host: "api.test",
                evaluator: try policy(.publicKey, ["root-ca"]),
                rejection: nil,
                label: "key pin root"
            ),
            Row(
                host: "api.test",
                evaluator: try policy(.publicKey, ["other-name"]),
                rejection: "no certificate in the chain has a pinned public key",
                label: "key pin another leaf"
            ),
            Row(
                host: "reissued.test",
                evaluator: try policy(.publicKey, ["leaf"]),
                rejection: nil,
                label: "key pin survives a re-issued certificate"
            ),
            Row(
                host: "reissued.test",
                evaluator: try policy(.certificate, ["leaf"]),
                rejection: unpinned,
                label: "certificate pin does not survive a re-issued certificate"
            ),
        ]
    }

    @Test(.enabled(if: isAvailable, "COURIER_PYTHON or TEST_PKI_DIR not set"))
    func everyRowIsDecidedAsExpectedAndNoRejectionSendsAByte() async throws {
        let rows = try Self.rows()
        let server = try await Self.startServer(connections: rows.count)
        let port = try #require(server.ready["PORT"].flatMap { Int($0) })
        for (index, row) in rows.enumerated() {
            let url = try #require(URL(string: "https://\(row.host):\(port)/probe/\(index)"))
            let transport = try Self.transport(row.evaluator, host: row.host, port: port)
            let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
            await transport.shutdown()
            if let rejection = row.rejection {
                #expect(recorded.error?.category == .serverTrustFailed, "\(row)")
                let message = recorded.error?.message ?? ""
                #expect(message.hasPrefix("the trust policy rejected the server: \(rejection)"), "\(row): \(message)")
            } else {
                #expect(recorded.response?.status.code == 200, "\(row): \(String(describing: recorded.error))")
            }
        }
        let records = try await Self.records(server)
        try #require(records.count == rows.count, "server output: \(records)")
        for (row, record) in zip(rows, records) {
            if row.rejection != nil {
                #expect(record["handshake"] as? String == "failed", "\(row): \(record)")
                #expect(record["bytes"] as? Int == 0, "\(row): \(record)")
            } else {
                #expect(record["handshake"] as? String == "ok", "\(row): \(record)")
                #expect((record["request_line"] as? String)?.hasPrefix("GET /probe/") == true, "\(row): \(record)")
            }
        }
    }

    @Test(.enabled(if: isAvailable, "COURIER_PYTHON or TEST_PKI_DIR not set"))
    func aRejectionOnAConnectionThatWouldResumeASessionStillSendsNothing() async throws {
        let server = try await Self.startServer(connections: 4)
        let port = try #require(server.ready["PORT"].flatMap { Int($0) })
        // A Digest challenge with `Connection: close` makes libcurl open a second connection within the
        // same transfer, offering the first connection's TLS session: without a policy the server
        // sees a resumed handshake.
        let url = try #require(URL(string: "https://api.test:\(port)/digest"))
        var request = HTTPRequest(url: url)
        request.credential = HTTPCredential(user: "user", password: "secret", schemes: .digest)
        let root = try Self.pki("root-ca.pem")
        let plain = CurlTestServers.transport {
            $0.tls.caFile = root
            $0.httpVersion = .http1_1
            $0.resolveOverrides = [.init(host: "api.test", port: port, addresses: ["127.0.0.1"])]
        }
        let control = await record(plain.startTransfer(request))
        await plain.shutdown()
        #expect(control.response?.status.code == 200)

        // With a policy that accepts the first handshake and rejects every later one, the second
        // connection gets a full handshake (the hook turns session resumption off), the evaluator is
        // asked again and refuses, and no request byte is sent.
        let handshakes = Lock(0)
        let acceptOnce = ClosureTrustEvaluator { _ in
            handshakes.withLock { count in
                count += 1
                return count == 1 ? .accept : .reject(reason: "only the first handshake is trusted")
            }
        }
        let guarded = try Self.transport(acceptOnce, host: "api.test", port: port)
        let refused = await record(guarded.startTransfer(request))
        await guarded.shutdown()
        #expect(refused.error?.category == .serverTrustFailed)
        #expect(refused.error?.message == "the trust policy rejected the server: only the first handshake is trusted")
        #expect(handshakes.withLock { $0 } == 2)

        let records = try await Self.records(server)
        try #require(records.count == 4, "server output: \(records)")
        #expect(records[0]["resumed"] as? Bool == false)
        #expect(records[1]["resumed"] as? Bool == true, "the control resumes: \(records[1])")
        #expect(records[1]["request_line"] as? String == "GET /digest HTTP/1.1")
        #expect(records[2]["resumed"] as? Bool == false)
        #expect(records[2]["request_line"] as? String == "GET /digest HTTP/1.1")
        #expect(records[3]["handshake"] as? String == "failed", "\(records[3])")
        #expect(records[3]["bytes"] as? Int == 0, "\(records[3])")
    }

    static func records(_ server: PythonTestServer) async throws -> [[String: Any]] {
        try await server.output().map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }
}
