import CourierHTTP
import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

@Suite struct MultipartPropertyTests {
    private struct ExpectedPart {
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    private static let nameAlphabet: [String] = [
        "a", "b", "Z", "0", "_", "-", " ", ";", "=", "%", "%22", "\"", "\r", "\n", "\r\n", "[", "]", "é", "日本",
        "🙂", "\\", "'", "\t",
    ]

    private static func randomName(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...8, using: &random)).map { _ in nameAlphabet.randomElement(using: &random) ?? "" }
            .joined()
    }

    /// Random bytes with boundary look-alikes and line breaks mixed in, but never the delimiter itself
    /// (CRLF `--boundary`, counting the CRLF that precedes every body): RFC 2046 forbids it in a part,
    /// which is why boundaries are random.
    private static func randomBytes(_ random: inout SeededRandom, boundary: String) -> [UInt8] {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        while true {
            let bytes = randomCandidate(&random, boundary: boundary)
            if MultipartTestParser.find(delimiter, in: [13, 10] + bytes, from: 0) == nil { return bytes }
        }
    }

    private static func randomCandidate(_ random: inout SeededRandom, boundary: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let traps: [[UInt8]] = [
            Array("\r\n".utf8), Array("--".utf8), Array("\r\n--".utf8), Array("\r\n\r\n".utf8),
            Array(("\r\n--" + boundary.dropLast()).utf8), Array(("--" + boundary.dropLast() + "-").utf8),
            Array(("\r\n-" + boundary).utf8), Array((boundary + "--\r\n").utf8),
        ]
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            if Bool.random(using: &random) {
                bytes += traps.randomElement(using: &random) ?? []
            } else {
                bytes += (0..<Int.random(in: 0...300, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            }
        }
        return bytes
    }

    @Test func randomFormsParseBackToTheirParts() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        let directory = try MultipartTestFiles.make(Data(), name: "anchor")
        defer { MultipartTestFiles.remove(directory) }
        let folder = (directory as NSString).deletingLastPathComponent
        var fileCounter = 0

        for formIndex in 0..<200 {
            var form = MultipartFormData()
            form.memoryThreshold = Bool.random(using: &random) ? 0 : .max
            var expected: [ExpectedPart] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let name = Self.randomName(&random)
                let fileName = Self.randomName(&random)
                let bytes = Self.randomBytes(&random, boundary: form.boundary)
                let disposition = "form-data; name=\"\(MultipartFormParser.htmlEscaped(name))\""
                let fileDisposition = disposition + "; filename=\"\(MultipartFormParser.htmlEscaped(fileName))\""
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    try form.append(Data(bytes), name: name)
                    expected.append(ExpectedPart(headers: [("Content-Disposition", disposition)], body: bytes))
                case 1:
                    try form.append(Data(bytes), name: name, fileName: fileName, mimeType: "application/x-test")
                    expected.append(
                        ExpectedPart(
                            headers: [
                                ("Content-Disposition", fileDisposition), ("Content-Type", "application/x-test"),
                            ],
                            body: bytes
                        )
                    )
                case 2:
                    fileCounter += 1
                    let path = folder + "/file\(fileCounter).bin"
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                    try form.appendFile(atPath: path, name: name, fileName: fileName, mimeType: "image/png")
                    expected.append(
                        ExpectedPart(
                            headers: [("Content-Disposition", fileDisposition), ("Content-Type", "image/png")],
                            body: bytes
                        )
                    )
                case 3:
                    var source = MultipartTestSource(actual: Data(bytes), declared: Int64(bytes.count))
                    source.chunk = Int.random(in: 1...500, using: &random)
                    try form.append(source: source, name: name, fileName: fileName, mimeType: "text/plain")
                    expected.append(
                        ExpectedPart(
                            headers: [("Content-Disposition", fileDisposition), ("Content-Type", "text/plain")],
                            body: bytes
                        )
                    )
                default:
                    let headers = try HTTPHeaders([
                        ("X-Index", "\(expected.count)"), ("Content-Disposition", disposition),
                    ])
                    try form.append(headers: headers, body: Data(bytes))
                    expected.append(
                        ExpectedPart(
                            headers: [("Content-Disposition", disposition), ("X-Index", "\(expected.count)")],
                            body: bytes
                        )
                    )
                }
            }

            let body = try form.makeBody()
            let bytes = try readMultipartBody(body, bufferSize: Int.random(in: 1...70_000, using: &random))
            #expect(Int64(bytes.count) == form.contentLength, "form \(formIndex), seed \(seed)")
            #expect(body.length == form.contentLength)
            let parts = try MultipartTestParser.parse(bytes, boundary: form.boundary)
            #expect(parts.count == expected.count, "form \(formIndex), seed \(seed)")
            for (part, want) in zip(parts, expected) {
                #expect(part.body == want.body, "form \(formIndex), seed \(seed)")
                #expect(part.headers.map(\.name) == want.headers.map(\.name), "form \(formIndex), seed \(seed)")
                #expect(part.headers.map(\.value) == want.headers.map(\.value), "form \(formIndex), seed \(seed)")
            }

            // A rewind after a random partial read replays the same bytes.
            let reader = try #require(try body.makeReader())
            var buffer = [UInt8](repeating: 0, count: Int.random(in: 1...4096, using: &random))
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                _ = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            }
            try reader.rewind()
            #expect(
                try readMultipartReader(reader, bufferSize: buffer.count) == bytes,
                "form \(formIndex), seed \(seed)"
            )
        }
    }
}
