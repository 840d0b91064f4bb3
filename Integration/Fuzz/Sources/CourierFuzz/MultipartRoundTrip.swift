import CourierHTTP
import CourierSerialization
import FoundationEssentials

/// The multipart writer round trip: a form built from the fuzzer's bytes (names and filenames with
/// any characters, bodies of any bytes), written by `MultipartFormData`, parsed back by the RFC 7578
/// parser (`MultipartFormParser`, checked against werkzeug over the integration tests' corpus), must
/// give exactly its parts, with `"`, CR and LF percent-encoded in names and filenames, and the
/// declared `Content-Length`; anything else stops the fuzzer with the case.
enum MultipartRoundTrip {
    static let mimeTypes = ["application/octet-stream", "image/png", "text/plain; charset=utf-8"]

    static func run(_ data: Data) {
        var reader = FuzzBytes(data)
        var form = MultipartFormData()
        var expected: [MultipartFormParser.Part] = []
        let delimiter = Array("\r\n--\(form.boundary)".utf8)
        for _ in 0..<Int(reader.byte() % 5) where !reader.isAtEnd {
            let name = reader.string()
            let bytes = (0..<Int(reader.byte())).map { _ in reader.byte() }
            // RFC 2046 §5.1.1: a body may not contain its delimiter; the writer's random boundary
            // makes that a matter of chance for real data, which the fuzzer can learn to force.
            guard MultipartFormParser.firstIndex(of: delimiter, in: [13, 10] + bytes, from: 0) == nil else { return }
            do {
                if reader.byte() % 2 == 0 {
                    try form.append(Data(bytes), name: name)
                    expected.append(
                        .init(name: MultipartFormParser.htmlEscaped(name), fileName: nil, contentType: nil, data: bytes)
                    )
                } else {
                    let fileName = reader.string()
                    let mimeType = mimeTypes[Int(reader.byte()) % mimeTypes.count]
                    try form.append(Data(bytes), name: name, fileName: fileName, mimeType: mimeType)
                    expected.append(
                        .init(
                            name: MultipartFormParser.htmlEscaped(name),
                            fileName: MultipartFormParser.htmlEscaped(fileName),
                            contentType: mimeType,
                            data: bytes
                        )
                    )
                }
            } catch {
                return  // a typed refusal is a pass
            }
        }
        guard !expected.isEmpty else { return }
        let body: [UInt8]
        do {
            body = try read(form.makeBody())
        } catch {
            fatalError("multipart: a form of \(expected.count) parts could not be written: \(error)")
        }
        guard Int64(body.count) == form.contentLength else {
            fatalError("multipart: \(body.count) bytes written, Content-Length says \(form.contentLength)")
        }
        let parsed: [MultipartFormParser.Part]
        do {
            parsed = try MultipartFormParser.parse(body, boundary: form.boundary)
        } catch {
            fatalError("multipart: the written body does not parse: \(error)")
        }
        guard parsed == expected else { fatalError("multipart: parsed \(parsed), expected \(expected)") }
    }

    /// The whole body through its pull reader, as the transport reads it.
    static func read(_ body: HTTPBody) throws -> [UInt8] {
        guard let reader = try body.makeReader() else { return [] }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            switch result {
            case .bytes(let count): output += buffer[0..<count]
            case .end: return output
            case .paused: continue  // no throttle is set: a pause would be a bug the loop shows as a hang
            }
        }
    }
}
