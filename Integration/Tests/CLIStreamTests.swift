import Foundation
import Testing

/// `courier --stream`: Server-Sent Events printed as they arrive, across the fault server's drops.
@Suite struct CLIStreamTests {
    static var fault: URL? { CurlTestServers.url("FAULT_HTTP_URL") }

    @Test(.enabled(if: CLIProcess.binary != nil && fault != nil, "needs the courier binary and FAULT_HTTP_URL"))
    func printsEveryEventInTheStreamFormatAcrossReconnections() async throws {
        let url = try #require(Self.fault).adding("/sse?id=\(UUID().uuidString)&events=3&per_connection=2&retry=20")
        let result = try await CLIProcess.run(["--stream", url.absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = (1...3).map { "id: \($0)\nevent: tick\ndata: event \($0)\ndata: line two\n\n" }.joined()
        #expect(result.outputText == expected)

        let conflict = try await CLIProcess.run(["--stream", "--download", url.absoluteString])
        #expect(conflict.status == 1)
    }
}

/// `courier image`: through the image downloader to a PNG thumbnail.
@Suite struct CLIImageTests {
    @Test(
        .enabled(if: CLIProcess.binary != nil && CurlTestServers.hasHTTP, "needs the courier binary and TEST_HTTP_URL")
    )
    func writesAThumbnailAsPNGAndFailsOnACorruptImage() async throws {
        let base = try #require(CurlTestServers.http)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        for format in ["png", "jpg", "webp"] {
            let result = try await CLIProcess.run([
                "image", base.adding("/images/gradient.\(format)").absoluteString, "--thumbnail", "16x16", "-o", output,
            ])
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(result.outputText.hasPrefix("37x23 -> 16x10, "), "\(format): \(result.outputText)")
            let png = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
        let corrupt = try await CLIProcess.run([
            "image", base.adding("/images/corrupt.png").absoluteString, "-o", output,
        ])
        #expect(corrupt.status == 1)
        #expect(!corrupt.standardError.isEmpty)
        let misuse = try await CLIProcess.run(["image", base.adding("/images/gradient.png").absoluteString])
        #expect(misuse.status == 1)
    }
}
