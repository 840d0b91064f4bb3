import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation

/// The loopback servers `ci/servers start` describes in the environment, for the libcurl tests.
enum CurlTestServers {
    static func value(_ key: String) -> String? {
        guard let text = ProcessInfo.processInfo.environment[key], !text.isEmpty else { return nil }
        return text
    }

    static func url(_ key: String) -> URL? { value(key).flatMap(URL.init(string:)) }

    /// nginx, plain HTTP/1.1.
    static var http: URL? { url("TEST_HTTP_URL") }
    /// nginx over TLS with h2.
    static var https: URL? { url("TEST_HTTPS_URL") }
    /// httpbin over HTTP/1.1.
    static var httpbin: URL? { url("TEST_HTTPBIN_URL") }
    /// httpbin on hypercorn, h2c by Upgrade.
    static var h2c: URL? { url("TEST_H2C_URL") }
    /// httpbin on hypercorn over TLS.
    static var h2: URL? { url("TEST_H2_URL") }
    /// tinyproxy.
    static var proxy: String? { value("TEST_PROXY_URL") }
    /// nginx's unix-domain socket.
    static var unixSocket: String? { value("TEST_UNIX_SOCKET") }
    /// The CA of the TLS servers.
    static var caFile: String? { value("TEST_CA_FILE") }
    /// The folder nginx serves.
    static var wwwDirectory: String? { value("TEST_WWW_DIR") }

    static var hasHTTP: Bool { http != nil }
    static var hasTLS: Bool { https != nil && caFile != nil }
    static var hasHTTPBin: Bool { httpbin != nil }

    /// A transport that ignores proxy variables of the environment and trusts the test CA.
    static func transport(_ adjust: (inout CurlTransport.Configuration) -> Void = { _ in }) -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        configuration.tls.caFile = caFile
        adjust(&configuration)
        return CurlTransport(configuration: configuration)
    }
}

/// What a test saw of a transfer's events.
struct RecordedTransfer {
    var response: HTTPResponse?
    var redirect: (HTTPResponse, URL)?
    var body = Data()
    var uploadProgress: [TransferProgress] = []
    var downloadProgress: [TransferProgress] = []
    var metrics: TransferMetrics?
    var error: TransportError?
    var eventsBeforeResponse = 0
    /// Body chunks that arrived before any head (`.response` or `.redirect`): always a bug.
    var bodyChunksBeforeHead = 0
}

/// Reads every event of `transfer`.
func record(_ transfer: HTTPTransfer) async -> RecordedTransfer {
    var recorded = RecordedTransfer()
    for await event in transfer.events {
        switch event {
        case .response(let response): recorded.response = response
        case .redirect(let response, let location): recorded.redirect = (response, location)
        case .body(let chunk):
            if recorded.response == nil { recorded.eventsBeforeResponse += 1 }
            if recorded.response == nil && recorded.redirect == nil { recorded.bodyChunksBeforeHead += 1 }
            recorded.body.append(chunk)
        case .uploadProgress(let progress): recorded.uploadProgress.append(progress)
        case .downloadProgress(let progress): recorded.downloadProgress.append(progress)
        case .completed(let metrics): recorded.metrics = metrics
        case .failed(let error): recorded.error = error
        }
    }
    return recorded
}

extension URL {
    /// `self` with `path` appended verbatim (query strings included).
    func adding(_ path: String) -> URL {
        URL(string: absoluteString + path) ?? self
    }
}

/// An async request-body producer of `chunks` chunks of printable pattern bytes, optionally failing
/// after `failAfter` chunks, or endless when `chunks` is `nil`.
struct PatternProducer: AsyncSequence, Sendable {
    typealias Element = Data

    let chunks: Int?
    let chunkSize: Int
    var failAfter: Int?

    struct ProducerFailure: Error {}

    static func bytes(count: Int) -> Data {
        Data((0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) })
    }

    func makeAsyncIterator() -> Iterator { Iterator(producer: self) }

    struct Iterator: AsyncIteratorProtocol {
        let producer: PatternProducer
        var index = 0

        mutating func next() async throws -> Data? {
            if let failAfter = producer.failAfter, index >= failAfter { throw ProducerFailure() }
            if let chunks = producer.chunks, index >= chunks { return nil }
            index += 1
            if index % 8 == 0 { await Task.yield() }
            return PatternProducer.bytes(count: producer.chunkSize)
        }
    }
}
