import CourierCurl
import CourierHTTP
import CourierWebSocket
import CourierWebSocketEngine
import Foundation

/// `CourierBench child-websocket --port P --size BYTES --connections C --seconds T --workload NAME
/// [--reference ROW]`: Courier's side of `ci/bench websocket`, the same measurement as the C client
/// (`reference/ws_reference.c`).
///
/// It opens C connections on one `CurlTransport` (no permessage-deflate offered, as the C client
/// offers none), waits until all are open, then on each sends a binary message of BYTES, waits for
/// the whole echo, checks it, and sends the next, for T seconds. The clock and
/// `getrusage(RUSAGE_SELF)` CPU time start once every connection is open. It prints the C client's
/// row format with variant `courier`; given the same round's C row (`--reference`), `ratio` is the
/// rate over the C client's and `cpu_ratio` the CPU per message over the C client's.
enum WebSocketClient {
    static func run(_ arguments: [String]) async {
        var options: [String: String] = [:]
        var index = 0
        while index + 1 < arguments.count {
            options[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard let port = options["--port"].flatMap(Int.init), let size = options["--size"].flatMap(Int.init),
            let connections = options["--connections"].flatMap(Int.init),
            let seconds = options["--seconds"].flatMap(Double.init), let workload = options["--workload"],
            let url = URL(string: "ws://127.0.0.1:\(port)\(options["--path"] ?? "/")")
        else {
            log(
                "usage: child-websocket --port P --size BYTES --connections C --seconds T --workload NAME [--reference ROW]"
            )
            exit(2)
        }
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        var configuration = WebSocketConfiguration()
        configuration.perMessageDeflate = nil
        configuration.maximumMessageSize = max(size, 1 << 20) * 2
        configuration.maximumFrameSize = max(size, 1 << 20) * 2
        let transport = CurlTransport()
        var sockets: [any WebSocketConnection] = []
        do {
            for _ in 0..<connections {
                var request = HTTPRequest(url: url)
                request.timeout = .seconds(30)
                sockets.append(
                    try await WebSocketConnector().connect(request, configuration: configuration, over: transport)
                )
            }
        } catch {
            log("child-websocket: cannot connect: \(error)")
            print("bench \(workload) courier failed_runs=1")
            await transport.shutdown()
            return
        }
        let startCPU = processCPUMicroseconds()
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        let counts = await withTaskGroup(of: Int?.self) { group in
            for socket in sockets {
                group.addTask {
                    var messages = 0
                    var iterator = socket.messages.makeAsyncIterator()
                    do {
                        while ContinuousClock.now < deadline {
                            try await socket.send(.binary(payload))
                            guard case .binary(let echo)? = try await iterator.next(), echo == payload else {
                                log("child-websocket: a wrong echo")
                                return nil
                            }
                            messages += 1
                        }
                    } catch {
                        log("child-websocket: \(error)")
                        return nil
                    }
                    return messages
                }
            }
            var counts: [Int?] = []
            for await count in group { counts.append(count) }
            return counts
        }
        let elapsed = ContinuousClock.now - start
        let cpu = processCPUMicroseconds() - startCPU
        for socket in sockets { await socket.close() }
        await transport.shutdown()
        let failed = counts.contains { $0 == nil }
        let messages = counts.compactMap { $0 }.reduce(0, +)
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard !failed, messages > 0, elapsedSeconds > 0 else {
            print("bench \(workload) courier failed_runs=1")
            return
        }
        let reference = options["--reference"].map(referenceFigures) ?? [:]
        var line = BenchLine(workload: workload, variant: "courier", metrics: [])
        let rate: Double
        let cpuPerMessage: Double
        if size >= 65536 {
            rate = Double(messages) * Double(size) / (1024 * 1024) / elapsedSeconds
            cpuPerMessage = cpu / Double(messages) / 1000
            line.metrics += [("mib_per_s", rate), ("cpu_ms_per_msg", cpuPerMessage)]
        } else {
            rate = Double(messages) / elapsedSeconds
            cpuPerMessage = cpu / Double(messages)
            line.metrics += [("msgs_per_s", rate), ("cpu_us_per_msg", cpuPerMessage)]
        }
        line.metrics.append(("rss_mib", (peakRSSMiB() * 10).rounded() / 10))
        let referenceRate = reference["mib_per_s"] ?? reference["msgs_per_s"]
        let referenceCPU = reference["cpu_ms_per_msg"] ?? reference["cpu_us_per_msg"]
        if let referenceRate, referenceRate > 0 { line.metrics.append(("ratio", rate / referenceRate)) }
        if let referenceCPU, referenceCPU > 0 { line.metrics.append(("cpu_ratio", cpuPerMessage / referenceCPU)) }
        line.metrics += [("connects", Double(connections)), ("messages", Double(messages))]
        emit(line)
    }

    /// The `key=value` figures of a C row (`bench NAME c msgs_per_s=… …`).
    static func referenceFigures(_ row: String) -> [String: Double] {
        var figures: [String: Double] = [:]
        for word in row.split(separator: " ") {
            let pair = word.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Double(pair[1]) { figures[String(pair[0])] = value }
        }
        return figures
    }
}
