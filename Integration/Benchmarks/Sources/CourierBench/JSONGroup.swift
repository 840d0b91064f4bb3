import CourierSerialization
import Foundation

/// `json`: parses one deterministic document of about 1 MiB (``JSONDocument``) four ways, in MiB of
/// input per second.
///
/// - `jsonvalue`: ``JSONResponseSerializer``, the library's public path to a ``JSONValue`` (the
///   nesting guard included), with no response to validate.
/// - `jsonvalue-codable`: `JSONDecoder` decoding ``JSONValue`` through its `Decodable` conformance,
///   the path the serializer took before it had a parser of its own.
/// - `decodable`: `JSONDecoder` into a `Decodable` model of the document.
/// - `jsonserialization`: full Foundation's `JSONSerialization` (the library has only
///   FoundationEssentials, which has none), the in-run reference.
///
/// Each variant gets `benchRuns` interleaved runs of about 0.4 s (at least one parse); the median
/// run is reported. `ratio` is throughput over `jsonserialization`'s, `cpu_ratio` CPU per parse over
/// its CPU per parse.
enum JSONGroup {
    static let runSeconds = 0.4

    struct Variant {
        let name: String
        /// Parses the document and returns a count that depends on the result, so that the work
        /// cannot be dropped.
        let parse: (Data) throws -> Int
    }

    static func makeVariants() -> [Variant] {
        [
            Variant(name: "jsonvalue") { data in
                let outcome = JSONResponseSerializer().serializedResponse(response: nil, data: data, request: nil)
                if let error = outcome.error { throw error }
                return outcome.value?["records"]?.arrayValue?.count ?? 0
            },
            Variant(name: "jsonvalue-codable") { data in
                try JSONDecoder().decode(JSONValue.self, from: data)["records"]?.arrayValue?.count ?? 0
            },
            Variant(name: "decodable") { data in
                try JSONDecoder().decode(JSONDocument.Document.self, from: data).records.count
            },
            Variant(name: "jsonserialization") { data in
                let object = try JSONSerialization.jsonObject(with: data)
                return ((object as? [String: Any])?["records"] as? [Any])?.count ?? 0
            },
        ]
    }

    static func run() throws {
        let data = JSONDocument.make()
        let variants = makeVariants()
        let mebibytes = Double(data.count) / 1_048_576
        let expected = try JSONDecoder().decode(JSONDocument.Document.self, from: data).meta.count
        // The same tree both ways, so that the fast path is checked against the decoder on this input.
        let serialized = JSONResponseSerializer().serializedResponse(response: nil, data: data, request: nil)
        guard serialized.error == nil, serialized.value == (try JSONDecoder().decode(JSONValue.self, from: data)) else {
            log(
                "json: JSONResponseSerializer and JSONDecoder disagree on the document: \(String(describing: serialized.error))"
            )
            exit(1)
        }
        log("json: document of \(data.count) bytes, \(expected) records")

        var iterations: [String: Int] = [:]
        for variant in variants {
            let count = try variant.parse(data)
            guard count == expected else {
                log("json \(variant.name) saw \(count) records, expected \(expected)")
                exit(1)
            }
            let (seconds, _) = try measure { sink &+= try variant.parse(data) }
            iterations[variant.name] = max(1, Int(runSeconds / seconds))
        }

        var rates: [String: [Double]] = [:]
        var cpuPerParse: [String: [Double]] = [:]
        for run in 1...benchRuns {
            for variant in variants {
                let count = iterations[variant.name] ?? 1
                let (seconds, cpu) = try measure {
                    for _ in 0..<count { sink &+= try variant.parse(data) }
                }
                rates[variant.name, default: []].append(mebibytes * Double(count) / seconds)
                cpuPerParse[variant.name, default: []].append(cpu / Double(count))
                log(
                    "json run \(run) \(variant.name): \(count) parses in \(String(format: "%.3f", seconds)) s = "
                        + "\(String(format: "%.1f", rates[variant.name]?.last ?? 0)) MiB/s"
                )
            }
        }
        let referenceRate = median(rates["jsonserialization"] ?? [])
        let referenceCPU = median(cpuPerParse["jsonserialization"] ?? [])
        for variant in variants {
            let rate = median(rates[variant.name] ?? [])
            let cpu = median(cpuPerParse[variant.name] ?? [])
            emit(
                BenchLine(
                    workload: "json-1m",
                    variant: variant.name,
                    metrics: [
                        ("mib_per_s", rate), ("cpu_ms_per_parse", cpu / 1000),
                        ("ratio", referenceRate > 0 ? rate / referenceRate : 0),
                        ("cpu_ratio", referenceCPU > 0 ? cpu / referenceCPU : 0),
                    ]
                )
            )
        }
        log("json sink \(sink)")
    }

    /// Keeps results alive so that the optimizer cannot drop the work.
    nonisolated(unsafe) static var sink = 0
}
