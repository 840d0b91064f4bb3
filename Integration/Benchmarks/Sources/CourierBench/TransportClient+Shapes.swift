import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation

/// The `courier` child's shapes beyond one URL streamed to a consumer, each the same work as the C
/// client's option of the same name: bodies written through the `.file` destination
/// (`--output-dir`), requests spread over several URLs (`--url` repeated) and run in rounds
/// (`--round`, `--min-seconds`).
extension TransportClient {
    /// One request of the `transport` variant. With one URL and no output directory, the plain
    /// stream of ``perform(_:on:)``; otherwise request `n` goes to `urls[n % urls.count]` (as in the
    /// C client) and, with an output directory, to its own file there.
    static func transportPerform(
        _ options: Options,
        request template: HTTPRequest,
        on transport: CurlTransport
    ) -> @Sendable () async -> Outcome {
        if options.urls.count == 1 && options.outputDirectory == nil {
            return { await perform(template, on: transport) }
        }
        let requests = options.urls.map { url in
            var request = template
            request.url = url
            return request
        }
        let numbers = RequestCounter()
        let directory = options.outputDirectory
        let process = getpid()
        return {
            let number = numbers.next.add(1, ordering: .relaxed).oldValue
            let request = requests[number % requests.count]
            guard let directory else { return await perform(request, on: transport) }
            return await perform(request, toFile: "\(directory)/courier-\(process)-\(number)", on: transport)
        }
    }

    /// One transfer through the `.file` destination. What counts as received is the file's size on
    /// disk once the transfer has completed (as in the C client); the file is deleted afterwards.
    static func perform(_ request: HTTPRequest, toFile path: String, on transport: CurlTransport) async -> Outcome {
        var options = TransferOptions()
        options.destination = .file(path: path, resume: nil)
        var outcome = await consume(transport.startTransfer(request, options: options))
        let streamedBytes = outcome.bytesDown
        if streamedBytes > 0 {
            log("a .file transfer also streamed \(streamedBytes) body bytes")
            outcome.ok = false
        }
        var info = stat()
        if stat(path, &info) == 0 {
            outcome.bytesDown = Int64(info.st_size)
        } else {
            log("cannot stat \(path): \(String(cString: strerror(errno)))")
            outcome.ok = false
        }
        if unlink(path) != 0 {
            log("cannot delete \(path): \(String(cString: strerror(errno)))")
            outcome.ok = false
        }
        return outcome
    }

    /// Rounds of `round` requests per URL, all of a round in flight at once, the next round when
    /// every one has finished, until `minSeconds` have passed.
    static func runRounds(options: Options, _ perform: @escaping @Sendable () async -> Outcome) async -> Tally {
        let roundSize = options.round * options.urls.count
        let start = ContinuousClock.now
        var total = Tally()
        repeat {
            total.merge(
                await withTaskGroup(of: Outcome.self, returning: Tally.self) { group in
                    for _ in 0..<roundSize { group.addTask { await perform() } }
                    var round = Tally()
                    for await outcome in group { round.add(outcome) }
                    return round
                }
            )
        } while ContinuousClock.now - start < .seconds(options.minSeconds)
        return total
    }
}
