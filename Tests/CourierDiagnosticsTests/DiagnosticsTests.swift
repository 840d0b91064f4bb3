import CourierDiagnostics
import CourierTestSupport
import Synchronization
import Testing

/// Counts how often a message or metadata autoclosure ran.
final class EvaluationCounter: Sendable {
    private let count = Atomic<Int>(0)
    func message(_ text: String) -> String {
        count.add(1, ordering: .relaxed)
        return text
    }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite struct DiagnosticsTests {
    @Test func levelsAreSwiftLogsSevenInOrder() {
        #expect(
            DiagnosticLevel.allCases.map(\.description) == [
                "trace", "debug", "info", "notice", "warning", "error", "critical",
            ]
        )
        #expect(DiagnosticLevel.allCases == DiagnosticLevel.allCases.sorted())
        #expect(DiagnosticLevel.trace < .debug)
        #expect(!(DiagnosticLevel.critical < .error))
    }

    @Test func disabledDiagnosticsNeverBuildTheMessageOrMetadata() {
        let counter = EvaluationCounter()
        let diagnostics = Diagnostics.disabled
        diagnostics.log(.critical, counter.message("never"), metadata: ["key": counter.message("value")])
        #expect(counter.value == 0)
        #expect(!diagnostics.isEnabled(.critical))
        #expect(diagnostics.handler == nil)
    }

    @Test func entriesBelowTheHandlersLevelAreNotBuilt() {
        let counter = EvaluationCounter()
        let handler = CollectingDiagnosticHandler(minimumLevel: .warning)
        let diagnostics = Diagnostics(handler: handler, label: "test.label")
        diagnostics.log(.info, counter.message("dropped"), metadata: ["key": counter.message("value")])
        #expect(counter.value == 0)
        #expect(handler.entries.isEmpty)
        #expect(!diagnostics.isEnabled(.notice))
        #expect(diagnostics.isEnabled(.warning))
        diagnostics.log(.warning, counter.message("kept"), metadata: ["key": counter.message("value")])
        #expect(counter.value == 2)
        #expect(handler.entries.map(\.message) == ["kept"])
    }

    @Test func theHandlersLevelIsReadOnEveryEmission() {
        let handler = CollectingDiagnosticHandler(minimumLevel: .error)
        let diagnostics = Diagnostics(handler: handler)
        diagnostics.log(.debug, "first")
        handler.minimumLevel = .trace
        diagnostics.log(.debug, "second")
        handler.minimumLevel = .critical
        diagnostics.log(.error, "third")
        #expect(handler.entries.map(\.message) == ["second"])
    }

    @Test func entryCarriesLabelSourceMetadataAndLocation() throws {
        let handler = CollectingDiagnosticHandler(minimumLevel: .trace)
        let diagnostics = Diagnostics(handler: handler, label: "app.network")
        let line: UInt = #line + 1
        diagnostics.log(.notice, "something \(42)", metadata: ["url": "http://127.0.0.1/", "code": "18"])
        let entry = try #require(handler.entries.first)
        #expect(
            entry
                == DiagnosticEntry(
                    level: .notice,
                    message: "something 42",
                    label: "app.network",
                    source: "CourierDiagnosticsTests",
                    metadata: ["code": "18", "url": "http://127.0.0.1/"],
                    file: "CourierDiagnosticsTests/DiagnosticsTests.swift",
                    function: "entryCarriesLabelSourceMetadataAndLocation()",
                    line: line
                )
        )
    }

    @Test func anExplicitSourceWinsOverTheFilesModule() throws {
        let handler = CollectingDiagnosticHandler(minimumLevel: .trace)
        Diagnostics(handler: handler).log(.error, "failed", source: "CourierCurl")
        let entry = try #require(handler.entries.first)
        #expect(entry.source == "CourierCurl")
        #expect(entry.label == "courier")
    }

    @Test(arguments: [
        ("CourierCurl/CurlLoop.swift", "CourierCurl"),
        ("NoSlash.swift", "NoSlash.swift"),
        ("A/B/C.swift", "A"),
    ])
    func sourceComesFromTheFileIDsModule(fileID: String, module: String) throws {
        let handler = CollectingDiagnosticHandler(minimumLevel: .trace)
        Diagnostics(handler: handler).log(.info, "x", file: fileID)
        #expect(handler.entries.first?.source == module)
    }
}
