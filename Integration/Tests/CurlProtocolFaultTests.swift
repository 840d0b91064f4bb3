import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// One broken response of `Integration/servers/fault_server.py` and the typed error it must produce.
struct ProtocolFault: Sendable, CustomTestStringConvertible {
    let path: String
    let overHTTP2: Bool
    let category: TransportError.Category
    /// A decoded-body limit for the transport, for the decompression bomb.
    var maximumResponseBodySize: Int64?

    var testDescription: String { "\(overHTTP2 ? "h2" : "h1") \(path) -> \(category)" }
}

/// Serialized: each elapsed time measures one transfer, not 23 transports starting at once on two cores.
@Suite(.serialized) struct CurlProtocolFaultTests {
    static var faultHTTP: URL? { CurlTestServers.url("FAULT_HTTP_URL") }
    static var faultH2: URL? { CurlTestServers.url("FAULT_H2_URL") }
    static var hasFaultServer: Bool { faultHTTP != nil && faultH2 != nil && CurlTestServers.caFile != nil }

    /// Every fault ends well within this; the total timeout is far longer, so a hang fails the test.
    static let promptness: Duration = .seconds(2)

    static let faults: [ProtocolFault] = [
        ProtocolFault(path: "/dup-content-length", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/cl-and-te", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/body-longer", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/body-longer-close", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/body-shorter", overHTTP2: false, category: .connectionLost),
        ProtocolFault(path: "/endless-1xx", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/huge-header", overHTTP2: false, category: .limitExceeded),
        ProtocolFault(path: "/many-headers", overHTTP2: false, category: .limitExceeded),
        ProtocolFault(
            path: "/gzip-bomb",
            overHTTP2: false,
            category: .limitExceeded,
            maximumResponseBodySize: 8 << 20
        ),
        ProtocolFault(path: "/reset-mid-body", overHTTP2: false, category: .connectionLost),
        ProtocolFault(path: "/truncated-chunked", overHTTP2: false, category: .connectionLost),
        ProtocolFault(path: "/bad-chunk-size", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/malformed-status", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/malformed-status-garbage", overHTTP2: false, category: .protocolViolation),
        ProtocolFault(path: "/rst-stream", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/goaway", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/goaway-close", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/goaway-before-head", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/goaway-before-head?unprocessed=1", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/malformed-frame", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/oversized-frame", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/bad-hpack", overHTTP2: true, category: .connectionLost),
        ProtocolFault(path: "/dup-content-length", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/body-longer", overHTTP2: true, category: .protocolViolation),
        ProtocolFault(path: "/body-shorter", overHTTP2: true, category: .protocolViolation),
    ]

    static func transport(_ adjust: (inout CurlTransport.Configuration) -> Void = { _ in }) -> CurlTransport {
        CurlTestServers.transport {
            $0.totalTimeout = .seconds(20)
            adjust(&$0)
        }
    }

    static func url(_ path: String, overHTTP2: Bool) throws -> URL {
        try #require(overHTTP2 ? faultH2 : faultHTTP).adding(path)
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"), arguments: faults)
    func faultEndsInATypedErrorPromptly(_ fault: ProtocolFault) async throws {
        let transport = Self.transport { $0.maximumResponseBodySize = fault.maximumResponseBodySize }
        let url = try Self.url(fault.path, overHTTP2: fault.overHTTP2)
        let start = ContinuousClock.now
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        let elapsed = start.duration(to: .now)
        await transport.shutdown()
        let error = try #require(recorded.error, "\(fault.testDescription) succeeded with \(recorded.body.count) bytes")
        print("fault \(fault.testDescription): \(error.category) in \(elapsed) (\(error))")
        #expect(error.category == fault.category, "\(error)")
        #expect(elapsed < Self.promptness, "\(error)")
        #expect(recorded.metrics == nil)
        if fault.overHTTP2, let version = error.metrics?.protocolVersion {
            #expect(version == .http2)
        }
        // No fault hands out more than the declared or received bytes as a body.
        #expect(recorded.body.count <= 8 << 20)
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func conflictingLengthsDeliverNoBody() async throws {
        let transport = Self.transport()
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: try Self.url("/dup-content-length", overHTTP2: false)))
        )
        await transport.shutdown()
        #expect(recorded.error?.message == "the response has conflicting Content-Length values 10, 5")
        #expect(recorded.body.isEmpty)
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func compressionBombAgainstASlowReaderEndsInALimit() async throws {
        // The reader stalls and the transport pauses: the bomb stays compressed meanwhile (libcurl
        // 7.88 decoding it itself overflowed its 64 MiB pause buffer here). Once the reader goes on,
        // the decoded-size limit ends the transfer with its typed error, and the buffer never held
        // more than the high-water mark plus one chunk.
        let limit: Int64 = 32 << 20
        let transport = Self.transport { $0.maximumResponseBodySize = limit }
        let start = ContinuousClock.now
        var failure: TransportError?
        var received = 0
        var largestBuffered = 0
        let events = transport.startTransfer(HTTPRequest(url: try Self.url("/gzip-bomb", overHTTP2: false))).events
        for await event in events {
            largestBuffered = max(largestBuffered, events.bufferedBodyBytes)
            switch event {
            case .body(let chunk):
                if received == 0 { try await Task.sleep(for: .milliseconds(300)) }
                received += chunk.count
            case .failed(let error): failure = error
            default: break
            }
        }
        await transport.shutdown()
        print(
            "slow reader of the gzip bomb: \(received) bytes, largest buffer \(largestBuffered), "
                + "\(failure.map(String.init(describing:)) ?? "no error")"
        )
        #expect(failure?.category == .limitExceeded)
        #expect(failure?.message == "the decoded response body is larger than \(limit) bytes")
        #expect(Int64(received) <= limit)
        #expect(largestBuffered <= TransferOptions().highWaterMark + (16 << 10))
        #expect(start.duration(to: .now) < .seconds(5))
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func overLongRedirectBodyIsAProtocolViolation() async throws {
        // A redirect's body is delivered now, so the framing checks must cover it as well.
        let transport = Self.transport { $0.httpVersion = .http1_1 }
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: try Self.url("/redirect-body-longer", overHTTP2: false)))
        )
        #expect(recorded.redirect?.0.status.code == 302)
        #expect(recorded.error?.category == .protocolViolation)
        #expect(recorded.error?.message == "the response body is longer than its Content-Length (10 excess bytes)")
        #expect(recorded.body == Data("0123456789".utf8) || recorded.body.isEmpty)
        await transport.shutdown()
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func overLongBodyNeverReachesTheNextResponse() async throws {
        let transport = Self.transport { $0.httpVersion = .http1_1 }
        let longer = await record(
            transport.startTransfer(HTTPRequest(url: try Self.url("/body-longer", overHTTP2: false)))
        )
        #expect(longer.error?.category == .protocolViolation)
        #expect(longer.error?.message == "the response body is longer than its Content-Length (10 excess bytes)")
        #expect(longer.body == Data("0123456789".utf8) || longer.body.isEmpty)
        let next = await record(transport.startTransfer(HTTPRequest(url: try Self.url("/ok", overHTTP2: false))))
        #expect(next.error == nil)
        #expect(next.body == Data("ok\n".utf8))
        #expect(next.metrics?.reusedConnection == false)
        await transport.shutdown()
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func brokenHTTP2ConnectionIsNotReused() async throws {
        let transport = Self.transport()
        let start = ContinuousClock.now
        let goaway = await record(transport.startTransfer(HTTPRequest(url: try Self.url("/goaway", overHTTP2: true))))
        #expect(goaway.error?.message == "the server ended the HTTP/2 connection with GOAWAY (error code 2)")
        #expect(start.duration(to: .now) < Self.promptness)
        let next = await record(transport.startTransfer(HTTPRequest(url: try Self.url("/ok", overHTTP2: true))))
        #expect(next.error == nil)
        #expect(next.body == Data("ok\n".utf8))
        #expect(next.metrics?.protocolVersion == .http2)
        #expect(start.duration(to: .now) < Self.promptness)
        await transport.shutdown()
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func controlsSucceed() async throws {
        let transport = Self.transport()
        for overHTTP2 in [false, true] {
            let recorded = await record(
                transport.startTransfer(HTTPRequest(url: try Self.url("/ok", overHTTP2: overHTTP2)))
            )
            #expect(recorded.error == nil)
            #expect(recorded.body == Data("ok\n".utf8))
            #expect(recorded.metrics?.protocolVersion == (overHTTP2 ? .http2 : .http1_1))
        }
        await transport.shutdown()
    }
}
