import Foundation

/// `CourierBench [GROUP ...]`: runs the named benchmark groups, or all of them.
///
/// Child-process modes (`child-<name> ...`) exist so that peak memory is measured in a fresh process.
@main
struct CourierBench {
    static let groups: [(name: String, run: @Sendable () throws -> Void)] = [
        ("query-encode", QueryEncodeGroup.run),
        ("multipart", MultipartGroup.run),
        ("json", JSONGroup.run),
        ("transport", TransportGroup.run),
        ("session", SessionGroup.run),
        ("images", ImagesGroup.run),
        ("soak", SoakGroup.run),
        ("chaos", ChaosGroup.run),
    ]

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, first.hasPrefix("child-") {
            try await runChild(first, Array(arguments.dropFirst()))
            return
        }
        // The soak and the chaos soak run for minutes and measure endurance, not speed: only when named.
        let wanted = arguments.isEmpty ? groups.map(\.name).filter { $0 != "soak" && $0 != "chaos" } : arguments
        for name in wanted {
            guard let group = groups.first(where: { $0.name == name }) else {
                log("unknown benchmark group \(name); known: \(groups.map(\.name).joined(separator: ", "))")
                exit(2)
            }
            log("== \(name) (\(benchRuns) runs)")
            try group.run()
        }
    }

    static func runChild(_ mode: String, _ arguments: [String]) async throws {
        switch mode {
        case "child-multipart": try MultipartGroup.child(arguments)
        case "child-transport": await TransportClient.run(arguments)
        case "child-soak": await SoakClient.run(arguments)
        case "child-chaos": await ChaosClient.run(arguments)
        default:
            log("unknown child mode \(mode)")
            exit(2)
        }
    }
}
