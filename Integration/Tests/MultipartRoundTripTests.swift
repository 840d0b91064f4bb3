import CourierHTTP
import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

@Suite struct MultipartRoundTripTests {
    struct ToolPart: Codable {
        let name: String
        let filename: String?
        let content_type: String?
        let data: String
    }

    struct ToolForm: Codable {
        let content_type: String
        let body: String
        let parts: [ToolPart]
    }

    struct ToolRequest: Codable {
        let forms: [ToolForm]
    }

    struct ToolReport: Decodable {
        let checked_forms: Int
        let checked_parts: Int
        let mismatch_count: Int
        let notes: [String: Int]
    }

    private static let alphabet: [String] = [
        "a", "b", "Q", "7", "_", "-", ".", " ", ";", "=", ",", "%", "%22", "%0A", "\"", "\"\"", "\r", "\n", "\r\n",
        "[", "]", "é", "ß", "日本", "🙂", "'", "\t", "/",
    ]

    private static func text(_ random: inout SeededRandom, allowEmpty: Bool) -> String {
        let count = Int.random(in: (allowEmpty ? 0 : 1)...10, using: &random)
        return (0..<count).map { _ in alphabet.randomElement(using: &random) ?? "" }.joined()
    }

    private static func bytes(_ random: inout SeededRandom, boundary: String) -> [UInt8] {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        while true {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes += Array("\r\n--\(boundary.dropLast())".utf8)
                case 1: bytes += Array("\r\n\r\n--".utf8)
                default:
                    bytes += (0..<Int.random(in: 0...400, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }
                }
            }
            // RFC 2046: a part may not contain its delimiter; random boundaries make that vanishingly
            // rare for real data, and the corpus keeps it out on purpose.
            let withLeadingBreak = [13, 10] + bytes
            let clash = withLeadingBreak.indices.contains { start in
                withLeadingBreak[start...].starts(with: delimiter)
            }
            if !clash { return bytes }
        }
    }

    @Test(.enabled(if: IntegrationEnvironment.python != nil, "COURIER_PYTHON not set"))
    func werkzeugParsesRandomFormsBackToTheirParts() async throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-roundtrip-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var forms: [ToolForm] = []
        for formIndex in 0..<150 {
            var form = MultipartFormData()
            var parts: [ToolPart] = []
            for partIndex in 0..<Int.random(in: 1...5, using: &random) {
                let name = Self.text(&random, allowEmpty: true)
                let fileName = Self.text(&random, allowEmpty: false)
                let data = Self.bytes(&random, boundary: form.boundary)
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    try form.append(Data(data), name: name)
                    parts.append(
                        ToolPart(name: name, filename: nil, content_type: nil, data: Data(data).base64EncodedString())
                    )
                case 1:
                    try form.append(Data(data), name: name, fileName: fileName, mimeType: "application/x-courier")
                    parts.append(
                        ToolPart(
                            name: name,
                            filename: fileName,
                            content_type: "application/x-courier",
                            data: Data(data).base64EncodedString()
                        )
                    )
                default:
                    let path = folder.appendingPathComponent("f\(formIndex)-\(partIndex).bin").path
                    try Data(data).write(to: URL(fileURLWithPath: path))
                    try form.appendFile(atPath: path, name: name, fileName: fileName, mimeType: "image/png")
                    parts.append(
                        ToolPart(
                            name: name,
                            filename: fileName,
                            content_type: "image/png",
                            data: Data(data).base64EncodedString()
                        )
                    )
                }
            }
            let body = try await form.makeBody().collect(upTo: 1 << 24)
            #expect(Int64(body.count) == form.contentLength)
            // The RFC 7578 parser the multipart fuzz target checks the writer with must read this
            // corpus as werkzeug does.
            let parsed = try MultipartFormParser.parse([UInt8](body), boundary: form.boundary)
            let expected = parts.map { part in
                MultipartFormParser.Part(
                    name: MultipartFormParser.htmlEscaped(part.name),
                    fileName: part.filename.map(MultipartFormParser.htmlEscaped),
                    contentType: part.content_type,
                    data: [UInt8](Data(base64Encoded: part.data) ?? Data())
                )
            }
            #expect(parsed == expected, "seed \(seed) form \(formIndex)")
            forms.append(ToolForm(content_type: form.contentType, body: body.base64EncodedString(), parts: parts))
        }

        let result = try await runPythonTool(
            "werkzeug_multipart.py",
            input: JSONEncoder().encode(ToolRequest(forms: forms))
        )
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONDecoder().decode(ToolReport.self, from: result.standardOutput)
        print(
            "werkzeug: \(report.checked_forms) forms, \(report.checked_parts) parts, notes \(report.notes.sorted { $0.key < $1.key })"
        )
        #expect(report.checked_forms == 150)
        #expect(
            report.mismatch_count == 0,
            "seed \(seed): \(String(decoding: result.standardOutput, as: UTF8.self).prefix(4000))"
        )
    }
}
