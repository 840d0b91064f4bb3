import CourierLocking

@testable import CourierTransport

/// The failure the channel suites end a channel with.
struct Broken: Error, Equatable {
    let reason: String
}

/// The channel the channel suites test: byte arrays, counted by their length.
typealias ByteChannel = BackpressuredChannel<[UInt8], Broken>

extension BackpressuredChannel where Element == [UInt8], Failure == Broken {
    /// A channel with the suites' usual water marks.
    static func make(high: Int = 100, low: Int = 40) -> (Producer, Consumer) {
        makeChannel(highWaterMark: high, lowWaterMark: low, size: { $0.count })
    }

    /// `count` bytes of `value`.
    static func chunk(_ count: Int, _ value: UInt8 = 1) -> [UInt8] { [UInt8](repeating: value, count: count) }

    /// What a read was, in a form `#expect` compares.
    static func label(_ read: Read?) -> String {
        switch read {
        case .element(let element): "element \(element.count)x\(element.first ?? 0)"
        case .end: "end"
        case .failure(let broken): "failure \(broken.reason)"
        case .abandoned: "abandoned"
        case nil: "empty"
        }
    }

    /// Starts a synchronous producer driven by its demand handler, as the loop thread is: it yields
    /// `total` one-byte elements (each its index) while it has room, stops when refused and goes on
    /// when called back; the last one ends the channel.
    static func startPump(into producer: Producer, total: Int) {
        let sent = Lock(0)
        let pump: @Sendable () -> Void = {
            while true {
                let index: Int? = sent.withLock { sent in
                    guard sent < total, producer.hasRoom() else { return nil }
                    sent += 1
                    return sent - 1
                }
                guard let index else { break }
                producer.yield([UInt8(truncatingIfNeeded: index)], finishing: index == total - 1)
            }
        }
        producer.setHandlers(onDemand: { Task { pump() } }, onTermination: {})
        Task { pump() }
    }

    /// Starts an asynchronous producer that sends `count` one-byte elements (each its index) and
    /// then ends the channel, or stops when the consumer leaves.
    static func startSender(into producer: Producer, count: Int) -> Task<Void, Never> {
        Task {
            for index in 0..<count {
                guard await producer.send([UInt8(truncatingIfNeeded: index)]) else { return }
            }
            producer.finish()
        }
    }
}
