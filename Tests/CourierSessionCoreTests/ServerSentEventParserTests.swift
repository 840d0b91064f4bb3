import CourierSessionEngine
import CourierTestSupport
import Foundation
import Testing

@testable import CourierSessionCore

/// The WHATWG event-stream interpretation, with the standard's own examples (HTML §9.2.6).
@Suite struct ServerSentEventParserTests {
    func parse(_ text: String, chunked: Bool = false) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumLineLength: 1 << 16, maximumEventSize: 1 << 20)
        guard chunked else { return try parser.feed(Array(text.utf8)) }
        var events: [ServerSentEvent] = []
        for byte in text.utf8 { events += try parser.feed([byte]) }
        return events
    }

    @Test func multiLineDataIsJoinedWithLineFeeds() throws {
        let events = try parse("data: YHOO\ndata: +2\ndata: 10\n\n")
        #expect(events == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func commentsIdsAndTheLeadingSpaceAsTheStandardShows() throws {
        let text = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        #expect(
            try parse(text) == [
                ServerSentEvent(data: "first event", id: "1"),
                ServerSentEvent(data: "second event", id: nil),
                ServerSentEvent(data: " third event", id: nil),
            ]
        )
    }

    @Test func emptyDataFieldsAndAnUnfinishedEvent() throws {
        #expect(try parse("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        #expect(
            try parse("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")]
        )
    }

    @Test func everyLineEndingAlsoSplitAcrossChunksAndOneLeadingByteOrderMark() throws {
        let text = "\u{FEFF}event: tick\r\ndata: a\rdata: b\n\r\ndata: c\r\r"
        let expected = [ServerSentEvent(type: "tick", data: "a\nb"), ServerSentEvent(data: "c")]
        #expect(try parse(text) == expected)
        #expect(try parse(text, chunked: true) == expected)
        // A second BOM is not dropped: it becomes part of the field name, which is then unknown.
        #expect(try parse("data: x\n\n\u{FEFF}data: y\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test func retryTakesDigitsOnlyAndAnIdWithNULIsIgnored() throws {
        let events = try parse("retry: 1500\nid: 7\ndata: a\n\nretry: 1x\nid: 8\u{0}\ndata: b\n\n")
        #expect(events.map(\.retry) == [.milliseconds(1500), .milliseconds(1500)])
        #expect(events.map(\.id) == ["7", "7"])
    }

    @Test func unknownFieldsAreIgnoredAndAFieldWithoutColonHasAnEmptyValue() throws {
        #expect(try parse("foo: bar\ndata\nevent\n\n") == [ServerSentEvent(type: "message", data: "")])
    }

    @Test func oversizedLinesAndEventsAreTypedErrors() {
        var shortLines = ServerSentEventParser(maximumLineLength: 8, maximumEventSize: 1 << 20)
        #expect(throws: ServerSentEventParser.Failure.lineTooLong(limit: 8)) {
            try shortLines.feed(Array("data: 0123456789\n\n".utf8))
        }
        var smallEvents = ServerSentEventParser(maximumLineLength: 1 << 10, maximumEventSize: 10)
        #expect(throws: ServerSentEventParser.Failure.eventTooLarge(limit: 10)) {
            try smallEvents.feed(Array("data: 12345\ndata: 67890\n\n".utf8))
        }
    }

    @Test func anyChunkingGivesTheSameEvents() throws {
        let seed = SeededRandom.seed()
        var random = SeededRandom(seed: seed)
        let text = (1...40).map { "id: \($0)\r\nevent: e\($0 % 3)\ndata: line \($0)\rdata: more\n\n: note\n" }.joined()
        let whole = try parse(text)
        #expect(whole.count == 40)
        for _ in 0..<50 {
            var parser = ServerSentEventParser(maximumLineLength: 1 << 16, maximumEventSize: 1 << 20)
            var events: [ServerSentEvent] = []
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let size = Int.random(in: 1...16, using: &random)
                events += try parser.feed(bytes.prefix(size))
                bytes = bytes.dropFirst(size)
            }
            #expect(events == whole, "COURIER_TEST_SEED=\(seed)")
        }
    }
}
