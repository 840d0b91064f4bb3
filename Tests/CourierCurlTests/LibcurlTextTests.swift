import CourierDiagnostics
import CourierTestSupport
import Testing

@testable import CourierCurl

@Suite struct LibcurlTextTests {
    @Test(arguments: [0x07_58_00, 0x07_58_01, 0x07_58_FF])
    func releasesOf7_88AreVerified(versionNumber: Int) {
        #expect(LibcurlText.compatibilityWarning(versionNumber: versionNumber, version: "7.88.x") == nil)
    }

    @Test(arguments: [0, 0x07_57_01, 0x07_59_00, 0x08_05_00])
    func otherReleasesNameEveryCheckThatMayNotFire(versionNumber: Int) throws {
        let warning = try #require(LibcurlText.compatibilityWarning(versionNumber: versionNumber, version: "8.5.0"))
        #expect(warning.hasPrefix("libcurl 8.5.0 is outside the releases"))
        for text in LibcurlText.allCases { #expect(warning.contains(text.check)) }
    }

    @Test func theWarningReachesTheDiagnosticsWithItsMetadata() throws {
        let handler = CollectingDiagnosticHandler(minimumLevel: .warning)
        let diagnostics = Diagnostics(handler: handler, label: "test.transport")
        LibcurlText.reportCompatibility(versionNumber: 0x08_05_00, version: "8.5.0", to: diagnostics)
        LibcurlText.reportCompatibility(versionNumber: 0x07_58_01, version: "7.88.1", to: diagnostics)
        let entries = handler.entries(where: "check", is: "libcurlText")
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.level == .warning)
        #expect(entry.metadata["curl.version"] == "8.5.0")
        #expect(entry.source == "CourierCurl")
    }

    /// The libcurl this package is built and tested with is one whose text was verified; when the
    /// platform moves to another release, this fails and `LibcurlTextSelfTests` says which checks
    /// still work there.
    @Test func theLinkedLibcurlIsAVerifiedRelease() {
        #expect(
            LibcurlText.verifiedVersions.contains(CurlRuntime.versionNumber),
            "libcurl \(CurlRuntime.versionDescription)"
        )
    }

    @Test func fragmentsMatchOnlyAtTheStartOfALine() {
        #expect(LibcurlText.goaway.matchedPrefix(of: "recveived GOAWAY, error=2") == "recveived GOAWAY, error=")
        #expect(LibcurlText.goaway.matchedPrefix(of: "received GOAWAY, error=0") == "received GOAWAY, error=")
        #expect(LibcurlText.goaway.matchedPrefix(of: "* received GOAWAY, error=0") == nil)
        #expect(LibcurlText.chunkedEncoding.occurs(in: "Illegal or missing hexadecimal sequence in chunked-encoding"))
        #expect(!LibcurlText.chunkedEncoding.occurs(in: "Connection reset by peer"))
    }
}
