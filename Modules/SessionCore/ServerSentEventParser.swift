internal import FoundationEssentials

/// The WHATWG HTML standard's event-stream interpretation (§9.2.6), fed with bytes as they arrive.
///
/// Lines end in CRLF, LF or CR, also when the CR and the LF arrive in different chunks; one leading
/// byte-order mark is dropped; a blank line dispatches the buffered event, and an event with no data
/// is not dispatched. Lines and events are bounded, so a stream that never ends a line cannot make
/// the client buffer without limit.
package struct ServerSentEventParser: Sendable {
    package enum Failure: Error, Equatable {
        case lineTooLong(limit: Int)
        case eventTooLarge(limit: Int)
    }

    package let maximumLineLength: Int
    package let maximumEventSize: Int

    /// The last event ID; kept across reconnections, as browsers keep it.
    package private(set) var lastEventID = ""
    /// The reconnection time the stream set, if any.
    package private(set) var retry: Duration?

    private var line: [UInt8] = []
    private var data = ""
    private var dataBytes = 0
    private var type = ""
    private var atStreamStart = true
    private var skipLineFeed = false

    package init(maximumLineLength: Int, maximumEventSize: Int) {
        self.maximumLineLength = maximumLineLength
        self.maximumEventSize = maximumEventSize
    }

    /// Starts a new stream (a reconnection): the buffers go, the last event ID and retry stay.
    package mutating func reset() {
        line.removeAll(keepingCapacity: true)
        data = ""
        dataBytes = 0
        type = ""
        atStreamStart = true
        skipLineFeed = false
    }

    /// What a chunk completed: its events in order, and the failure that stopped the parse, if one
    /// did. The events completed before a failure are kept, so that a reader gets every event the
    /// server finished before the one that broke a limit.
    package struct Parsed: Sendable {
        package var events: [ServerSentEvent] = []
        package var failure: Failure?
    }

    /// Consumes `bytes` and returns the events they complete, in order, and a failure if a limit
    /// was broken (the rest of the chunk is not read).
    package mutating func parse(_ bytes: some Sequence<UInt8>) -> Parsed {
        var parsed = Parsed()
        do {
            try feed(bytes) { parsed.events.append($0) }
        } catch {
            parsed.failure = error
        }
        return parsed
    }

    /// Consumes `bytes` and returns the events they complete, in order; throws at a broken limit,
    /// dropping the events the chunk completed before it (``parse(_:)`` keeps them).
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try feed(bytes) { events.append($0) }
        return events
    }

    private mutating func feed(
        _ bytes: some Sequence<UInt8>,
        emit: (ServerSentEvent) -> Void
    ) throws(Failure) {
        for byte in bytes {
            if skipLineFeed {
                skipLineFeed = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D, 0x0A:
                skipLineFeed = byte == 0x0D
                if let event = try processLine() { emit(event) }
                line.removeAll(keepingCapacity: true)
            default:
                guard line.count < maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
                line.append(byte)
            }
        }
    }

    private mutating func processLine() throws(Failure) -> ServerSentEvent? {
        var bytes = line[...]
        if atStreamStart {
            atStreamStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            var value = bytes[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            return try process(field: String(decoding: bytes[..<colon], as: UTF8.self), value: value)
        }
        return try process(field: String(decoding: bytes, as: UTF8.self), value: [])
    }

    private mutating func process(field: String, value: ArraySlice<UInt8>) throws(Failure) -> ServerSentEvent? {
        switch field {
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "data":
            dataBytes += value.count + 1
            guard dataBytes <= maximumEventSize else { throw .eventTooLarge(limit: maximumEventSize) }
            // Each data line counts its line feed, so any data line makes the count positive.
            if dataBytes > value.count + 1 { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
        case "id":
            // An id with a NUL is ignored, so it cannot cut the Last-Event-ID header short.
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            dataBytes = 0
            type = ""
        }
        guard dataBytes > 0 else { return nil }
        return ServerSentEvent(
            type: type.isEmpty ? "message" : type,
            data: data,
            id: lastEventID.isEmpty ? nil : lastEventID,
            retry: retry
        )
    }
}
