import CourierLocking
import Foundation

/// `CourierReachabilityWatch` running inside a test's network namespace (`ip netns exec`), with its
/// output lines, each stamped with the moment it arrived.
final class ReachabilityWatchProcess {
    /// One delivery line: `LABEL status=… interface=… …`.
    struct Line: Sendable {
        var label: String
        /// Everything after the label.
        var fields: String
        var arrival: ContinuousClock.Instant
    }

    /// The helper next to the `courier` binary (`swift build` puts every executable in one folder).
    static let binary: String? = CLIProcess.binary.map {
        URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("CourierReachabilityWatch").path
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorOutput = Pipe()
    private let lines = LineQueue()
    private let buffers = Buffers()
    private let exited = LineQueue.Exit()

    init(namespace: TestNetworkNamespace, binary: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: namespace.ip)
        process.arguments = ["netns", "exec", namespace.name, binary] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        let lines = self.lines
        let buffers = self.buffers
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            let arrival = ContinuousClock.now
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                lines.finish()
                return
            }
            for text in buffers.output.append(data) {
                let label = String(text.prefix { $0 != " " })
                lines.append(Line(label: label, fields: String(text.dropFirst(label.count + 1)), arrival: arrival))
            }
        }
        errorOutput.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            buffers.errors.withLock { $0.append(data) }
        }
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    /// What the helper wrote on standard error (its diagnostics).
    var standardError: String { buffers.errors.withLock { String(decoding: $0, as: UTF8.self) } }

    /// The next line, or `nil` when none came by `deadline`.
    func next(before deadline: ContinuousClock.Instant) async -> Line? {
        await lines.next(before: deadline)
    }

    /// Closes the helper's standard input, which makes it stop its monitors and exit; terminates it
    /// if it has not exited five seconds later.
    func stop() async {
        try? input.fileHandleForWriting.close()
        if await !exited.wait(before: .now + .seconds(5)) {
            process.terminate()
            _ = await exited.wait(before: .now + .seconds(5))
        }
    }
}

/// What the reading threads collect: standard output's lines, and standard error.
private final class Buffers: Sendable {
    let output = LineAccumulator()
    let errors = Lock(Data())
}

/// Lines handed from the reading thread to the test, which waits for each with a deadline.
private final class LineQueue: Sendable {
    private struct State {
        var lines: [ReachabilityWatchProcess.Line] = []
        var finished = false
        var waiter: (id: Int, continuation: CheckedContinuation<ReachabilityWatchProcess.Line?, Never>)?
        var nextWaiter = 0
    }

    private let state = Lock(State())

    func append(_ line: ReachabilityWatchProcess.Line) {
        state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.continuation.resume(returning: line)
            } else {
                state.lines.append(line)
            }
        }
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    func finish() {
        state.withLock { state in
            state.finished = true
            state.waiter?.continuation.resume(returning: nil)
            state.waiter = nil
        }
    }

    func next(before deadline: ContinuousClock.Instant) async -> ReachabilityWatchProcess.Line? {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if !state.lines.isEmpty {
                    continuation.resume(returning: state.lines.removeFirst())
                    return nil
                }
                if state.finished {
                    continuation.resume(returning: nil)
                    return nil
                }
                state.nextWaiter += 1
                state.waiter = (state.nextWaiter, continuation)
                return state.nextWaiter
            }
            guard let id else { return }
            Task {
                try? await Task.sleep(until: deadline)
                self.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        state.withLock { state in
            guard let waiter = state.waiter, waiter.id == id else { return }
            state.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
    }

    /// The helper's exit, awaited with a deadline.
    final class Exit: Sendable {
        private let queue = LineQueue()

        func signal() {
            queue.finish()
        }

        /// `true` when the process exited before `deadline`.
        func wait(before deadline: ContinuousClock.Instant) async -> Bool {
            _ = await queue.next(before: deadline)
            return queue.isFinished
        }
    }
}
