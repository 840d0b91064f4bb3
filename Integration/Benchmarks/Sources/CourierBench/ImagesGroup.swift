import CourierImageCache
import Dispatch
import Foundation
import Synchronization

/// `images`: the image cache's add and get operations from 2 threads at once, then decode
/// throughput (``DecodeBench``).
///
/// - `courier`: ``AutoPurgingImageCache`` with its defaults (100 MiB, 60 MiB after purge).
/// - `reference`: a `Mutex<[String: Entry]>` dictionary without recency bookkeeping or purging, in
///   the same run: the cost of one lock and one hash lookup per operation, which is the floor.
///
/// Both threads replay one seeded sequence of operations (1 add for 4 gets) over 1,000 identifiers
/// of 64 × 64-pixel images (16 KiB each, 16 MiB in all: no purge runs, so the comparison is the
/// bookkeeping alone). Runs are interleaved, courier then reference; the median run is reported.
/// `ratio` (throughput over the reference's) and `cpu_ratio` (CPU per operation over the
/// reference's) are the medians of the per-run ratios: each pair of runs shares the machine's load
/// of the moment, which on a busy 2-core machine swings a single run by 3×.
enum ImagesGroup {
    static let identifiers = (0..<1_000).map { "https://images.test/photos/\($0).png" }
    static let operationsPerThread = 1_000_000
    static let threads = 2

    /// A cache under test: add and get by identifier.
    struct Subject: Sendable {
        let name: String
        let add: @Sendable (PixelImage, String) -> Void
        let get: @Sendable (String) -> PixelImage?
    }

    static func run() throws {
        let image = try PixelImage(width: 64, height: 64, pixels: [UInt8](repeating: 0x7F, count: 64 * 64 * 4))
        // SplitMix64 from a fixed seed: every run and variant replays the same operations.
        var state: UInt64 = 0x1234_5678
        let operations: [Int32] = (0..<operationsPerThread).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            let index = Int32(value % UInt64(identifiers.count))
            // Negative: an add of identifier -index - 1.
            return value % 5 == 0 ? -index - 1 : index
        }

        var rates: [String: [Double]] = [:]
        var cpuPerOperation: [String: [Double]] = [:]
        for run in 1...benchRuns {
            for subject in [makeCourier(), makeReference()] {
                for identifier in identifiers { subject.add(image, identifier) }
                let (seconds, cpu) = measure {
                    DispatchQueue.concurrentPerform(iterations: threads) { thread in
                        var hits = 0
                        // The threads start at different points of the sequence, so they do not
                        // move in lockstep over the same identifiers.
                        let offset = thread * operations.count / threads
                        for step in 0..<operations.count {
                            let operation = Int(operations[(step + offset) % operations.count])
                            if operation < 0 {
                                subject.add(image, identifiers[-operation - 1])
                            } else if subject.get(identifiers[operation]) != nil {
                                hits += 1
                            }
                        }
                        sink.add(hits, ordering: .relaxed)
                    }
                }
                let total = Double(operations.count * threads)
                rates[subject.name, default: []].append(total / seconds)
                cpuPerOperation[subject.name, default: []].append(cpu / total)
                log(
                    "images run \(run) \(subject.name): \(Int(total)) operations in "
                        + "\(String(format: "%.3f", seconds)) s = \(Int(total / seconds)) ops/s, "
                        + "\(String(format: "%.3f", cpu / total)) µs CPU/op"
                )
            }
        }
        let referenceRates = rates["reference"] ?? []
        let referenceCPUs = cpuPerOperation["reference"] ?? []
        for name in ["courier", "reference"] {
            let rate = median(rates[name] ?? [])
            let cpu = median(cpuPerOperation[name] ?? [])
            let rateRatios = zip(rates[name] ?? [], referenceRates).map { $0 / $1 }
            let cpuRatios = zip(cpuPerOperation[name] ?? [], referenceCPUs).map { $0 / $1 }
            emit(
                BenchLine(
                    workload: "image-cache-2-threads",
                    variant: name,
                    metrics: [
                        ("ops_per_s", rate),
                        ("cpu_us_per_op", cpu),
                        ("ratio", median(rateRatios)),
                        ("cpu_ratio", median(cpuRatios)),
                    ]
                )
            )
        }
        log("images sink \(sink.load(ordering: .relaxed))")
        try DecodeBench.run()
    }

    static func makeCourier() -> Subject {
        let cache = AutoPurgingImageCache<PixelImage>()
        return Subject(
            name: "courier",
            add: { cache.add($0, withIdentifier: $1) },
            get: { cache.image(withIdentifier: $0) }
        )
    }

    static func makeReference() -> Subject {
        let cache = ReferenceImageCache()
        return Subject(name: "reference", add: { cache.add($0, $1) }, get: { cache.get($0) })
    }

    /// Keeps results alive so that the optimizer cannot drop the work.
    static let sink = Atomic<Int>(0)
}

/// The yardstick: a locked dictionary, no recency, no purge.
final class ReferenceImageCache: Sendable {
    struct Entry {
        let image: PixelImage
        let cost: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    func add(_ image: PixelImage, _ identifier: String) {
        entries.withLock { $0[identifier] = Entry(image: image, cost: image.memoryCost) }
    }

    func get(_ identifier: String) -> PixelImage? {
        entries.withLock { $0[identifier]?.image }
    }
}
