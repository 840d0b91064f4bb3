import Foundation

/// The `json` group's input: a deterministic document of about 1 MiB, the same bytes in every run
/// and on every machine (a fixed linear congruential generator, no `random()`).
///
/// `{"meta": {...}, "records": [record, ...]}`, each record an object with integers (one beyond a
/// double's precision), fractions, exponents, booleans, `null`, strings with escapes (`\n`, `\"`,
/// `\\`, `\/`, `\u00e9`, a surrogate pair `\ud83d\ude00`) and raw UTF-8, an array of strings, an array
/// of numbers and a nested object three levels deep.
enum JSONDocument {
    /// The decoded shape of one record, for the `decodable` row.
    struct Record: Decodable {
        struct Position: Decodable {
            let x: Double
            let y: Double
            let label: String
        }
        struct Detail: Decodable {
            let level: Int
            let position: Position
            let flags: [Bool]
        }
        let id: Int64
        let name: String
        let note: String?
        let score: Double
        let ratio: Double
        let active: Bool
        let tags: [String]
        let samples: [Double]
        let detail: Detail
        let big: Int64
    }

    struct Document: Decodable {
        struct Meta: Decodable {
            let version: Int
            let generator: String
            let count: Int
        }
        let meta: Meta
        let records: [Record]
    }

    static let targetSize = 1 << 20

    static func make() -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let words = [
            "alpha", "beta", "gamma", "delta", "tab\\there", "line\\nbreak", "quote\\\"d", "back\\\\slash",
            "sl\\/ash", "caf\\u00e9", "smile \\ud83d\\ude00", "naïve", "日本語", "plain",
        ]
        var records: [String] = []
        var size = 0
        var index = 0
        while size < targetSize - 200 {
            let id = Int64(next() % 1_000_000) * 1_000 + Int64(index)
            let name = "\(words[Int(next() % UInt64(words.count))]) \(words[Int(next() % UInt64(words.count))])"
            let note =
                next() % 3 == 0
                ? "null" : "\"\(words[Int(next() % UInt64(words.count))]) #\(index) \\u0041\\u00DF\\u6771\""
            let score = Double(next() % 100_000) / 100
            let ratio = "\(next() % 9 + 1).\(next() % 1000)e-\(next() % 12)"
            let tags = (0..<Int(next() % 4 + 1)).map { _ in "\"\(words[Int(next() % UInt64(words.count))])\"" }
            let samples = (0..<Int(next() % 5 + 2)).map { _ in
                String(Double(Int64(next() % 2_000_000) - 1_000_000) / 1_000)
            }
            let flags = (0..<3).map { _ in next() % 2 == 0 ? "true" : "false" }
            let record =
                #"{"id":\#(id),"name":"\#(name)","note":\#(note),"score":\#(score),"ratio":\#(ratio),"#
                + #""active":\#(next() % 2 == 0),"tags":[\#(tags.joined(separator: ","))],"#
                + #""samples":[\#(samples.joined(separator: ", "))],"#
                + #""detail":{"level":\#(next() % 10),"position":{"x":\#(Double(next() % 10_000) / 7),"#
                + #""y":-\#(next() % 500).25E+2,"label":"p\#(index)"},"flags":[\#(flags.joined(separator: ","))]},"#
                + #""big":\#(9_007_199_254_740_993 + Int64(next() % 1_000))}"#
            records.append(record)
            size += record.utf8.count + 2
            index += 1
        }
        let text =
            #"{"meta": {"version": 1, "generator": "courier-bench", "count": \#(records.count)},"#
            + "\n \"records\": [\n  " + records.joined(separator: ",\n  ") + "\n ]\n}\n"
        return Data(text.utf8)
    }
}
