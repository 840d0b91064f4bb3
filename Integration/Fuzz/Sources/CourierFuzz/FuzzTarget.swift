import CourierHTTP
import CourierImageDecoding
import CourierSerialization
import FoundationEssentials

@testable import CourierCurl
@testable import CourierReachabilityNetlink
@testable import CourierSessionCore

/// One parser under the fuzzer: a name, what it is fed, and the floors a smoke run must reach.
///
/// A target must never crash, hang or trip AddressSanitizer, whatever the bytes; a typed error is
/// a pass. The floors are positive controls for `ci/fuzz`: a run that covers fewer edges (`cov:`)
/// or executes fewer inputs than its floor in the time it was given did not really fuzz the parser
/// (a broken build, a target that returns early), and fails.
struct FuzzTarget: Sendable {
    let name: String
    /// Coverage (libFuzzer's `cov:`, seeds included) a smoke run must reach: about 60% of what a
    /// 3-second run reached when the floor was set, so that a slower machine still passes. The
    /// URL target's is low because the parsing it reaches is Foundation's, which carries no
    /// coverage instrumentation (AddressSanitizer still watches every access made from Courier's side).
    let coverageFloor: Int
    /// Inputs a smoke run must execute at least, whatever its length: proof that it ran (the rate
    /// is reported, never gated, as it follows the machine).
    let executionFloor: Int
    let run: @Sendable (Data) -> Void

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "response-head", coverageFloor: 300, executionFloor: 1_000, run: responseHead),
        FuzzTarget(name: "json", coverageFloor: 300, executionFloor: 1_000, run: json),
        FuzzTarget(name: "property-list", coverageFloor: 350, executionFloor: 500, run: propertyList),
        FuzzTarget(name: "charsets", coverageFloor: 400, executionFloor: 1_000, run: charsets),
        FuzzTarget(name: "url-resolution", coverageFloor: 50, executionFloor: 1_000, run: urlResolution),
        FuzzTarget(name: "headers", coverageFloor: 110, executionFloor: 1_000, run: headers),
        FuzzTarget(name: "server-sent-events", coverageFloor: 100, executionFloor: 1_000, run: serverSentEvents),
        FuzzTarget(name: "netlink", coverageFloor: 200, executionFloor: 1_000, run: netlink),
        FuzzTarget(name: "image", coverageFloor: 140, executionFloor: 1_000, run: image),
        FuzzTarget(name: "http-cache", coverageFloor: 250, executionFloor: 1_000, run: HTTPCacheInputs.run),
        FuzzTarget(name: "query-round-trip", coverageFloor: 400, executionFloor: 1_000, run: QueryRoundTrip.run),
        FuzzTarget(name: "multipart-round-trip", coverageFloor: 400, executionFloor: 500, run: MultipartRoundTrip.run),
        FuzzTarget(name: "json-parser", coverageFloor: 700, executionFloor: 1_000, run: JSONParserDifferential.run),
        FuzzTarget(name: "websocket-frames", coverageFloor: 480, executionFloor: 1_000, run: WebSocketFrameInputs.run),
        FuzzTarget(
            name: "websocket-utf8",
            coverageFloor: 150,
            executionFloor: 1_000,
            run: WebSocketUTF8Differential.run
        ),
    ]

    /// A deliberate heap overflow, for the positive control that AddressSanitizer and the fuzzer
    /// are really on: only when `COURIER_FUZZ_PLANTED_BUG=1`, so it can never run by accident.
    static let planted = FuzzTarget(name: "planted-bug", coverageFloor: 0, executionFloor: 0) { data in
        guard data.count >= 3, data[data.startIndex] == 0x46, data[data.startIndex + 1] == 0x55,
            data[data.startIndex + 2] == 0x5A
        else { return }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 3)
        defer { buffer.deallocate() }
        // Writes one byte past the allocation for an input that starts with "FUZ".
        buffer.advanced(by: 3).pointee = 0
    }

    static func named(_ name: String, plantedBugAllowed: Bool) -> FuzzTarget? {
        if name == planted.name { return plantedBugAllowed ? planted : nil }
        return all.first { $0.name == name }
    }
}

// MARK: The targets

extension FuzzTarget {
    /// libcurl's header lines: the input split after each LF, fed to the parser line by line; each
    /// final head goes through the framing checks the transport runs before a body is read.
    static func responseHead(_ data: Data) {
        var parser = ResponseHeadParser()
        let bytes = [UInt8](data)
        var start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: 0x0A) ?? (bytes.count - 1)) + 1
            let outcome = bytes[start..<end].withUnsafeBytes { parser.consume($0) }
            if case .final(_, let version, let headers) = outcome {
                _ = ResponseHeadReader.framingViolation(headers, version: version)
                _ = ResponseFraming.isPlainlyFramed(headers)
            }
            if case .malformed = outcome { return }
            start = end
        }
    }

    static let jsonResponse = HTTPResponse(
        status: .ok,
        headers: (try? HTTPHeaders([("Content-Type", "application/json")])) ?? HTTPHeaders(),
        url: URL(string: "http://127.0.0.1/fuzz") ?? URL(fileURLWithPath: "/")
    )

    /// The JSON serializer, fragments allowed and not, null removal on: its nesting guard included.
    static func json(_ data: Data) {
        _ = JSONResponseSerializer().serializedResponse(response: jsonResponse, data: data, request: nil)
        _ = JSONResponseSerializer(removesKeysWithNullValues: true, allowsFragments: true)
            .serializedResponse(response: jsonResponse, data: data, request: nil)
    }

    /// The property-list serializer (XML, binary and OpenStep forms): its nesting guard included.
    static func propertyList(_ data: Data) {
        let response = HTTPResponse(
            status: .ok,
            headers: (try? HTTPHeaders([("Content-Type", "application/x-plist")])) ?? HTTPHeaders(),
            url: jsonResponse.url
        )
        _ = PropertyListResponseSerializer().serializedResponse(response: response, data: data, request: nil)
    }

    /// Every charset the string serializer knows, the first byte choosing one; then the serializer
    /// with the charset taken from a `Content-Type` made of the next bytes up to a NUL.
    static func charsets(_ data: Data) {
        guard let first = data.first else { return }
        let charset = Charset.allCases[Int(first) % Charset.allCases.count]
        let rest = data.dropFirst()
        _ = try? charset.decode(Data(rest))
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        let contentType = "text/plain; charset=" + String(decoding: rest[..<split], as: UTF8.self)
        guard let headers = try? HTTPHeaders([("Content-Type", contentType)]) else { return }
        let response = HTTPResponse(status: .ok, headers: headers, url: jsonResponse.url)
        _ = StringResponseSerializer().serializedResponse(
            response: response,
            data: Data(rest[split...]),
            request: nil
        )
    }

    /// AFNetworking's base-URL normalisation, then RFC 3986 §5.2 resolution: a base URL and a
    /// reference, split at the first NUL.
    static func urlResolution(_ data: Data) {
        let split = data.firstIndex(of: 0) ?? data.endIndex
        let base = String(decoding: data[..<split], as: UTF8.self)
        let reference = String(decoding: data[split...].dropFirst(), as: UTF8.self)
        guard let baseURL = URL(string: base) else { return }
        _ = URLResolution.resolve(reference, against: URLResolution.normalisedBase(baseURL))
    }

    /// Header validation: name and value split at the first NUL (CR, LF and NUL in a value, and
    /// anything but a token in a name, must be a typed error).
    static func headers(_ data: Data) {
        let split = data.firstIndex(of: 0) ?? data.endIndex
        let name = String(decoding: data[..<split], as: UTF8.self)
        let value = String(decoding: data[split...].dropFirst(), as: UTF8.self)
        var headers = HTTPHeaders()
        if (try? headers.add(name: name, value: value)) != nil {
            _ = headers[name]
        }
    }

    /// The event-stream parser, fed in chunks whose sizes come from the first byte, with small
    /// limits so the line and event limits are reached.
    static func serverSentEvents(_ data: Data) {
        guard let first = data.first else { return }
        var parser = ServerSentEventParser(maximumLineLength: 512, maximumEventSize: 2_048)
        let chunk = Int(first % 17) + 1
        var rest = data.dropFirst()
        while !rest.isEmpty {
            do {
                _ = try parser.feed(rest.prefix(chunk))
            } catch {
                return
            }
            rest = rest.dropFirst(chunk)
        }
    }

    /// rtnetlink messages as the kernel would send them to the reachability monitor.
    static func netlink(_ data: Data) {
        _ = NetlinkParser.parse([UInt8](data))
    }

    /// The image decoders (PNG, JPEG, WebP by sniffing), with limits small enough that a hostile
    /// header cannot make the fuzzer allocate gigabytes.
    static let decoder = ImageDecoder(
        limits: ImageDecoder.Limits(maximumPixelCount: 1 << 20, maximumInputSize: 1 << 20)
    )

    static func image(_ data: Data) {
        _ = try? decoder.decode(data)
    }
}
