import CourierSerialization
import Foundation
import Testing

@Suite struct MIMETypesTests {
    private let table = MIMETypes(
        parsing: """
            # a comment line
            text/x-notes\tnotes nts   # trailing comment
            application/x-first  dup
            application/x-second dup more
            broken-line-without-slash ignored
            image/x-upper  UPR
            """
    )

    @Test func looksUpExtensionsFromAnInjectedTable() {
        #expect(table.mimeType(forExtension: "notes") == "text/x-notes")
        #expect(table.mimeType(forExtension: "nts") == "text/x-notes")
        #expect(table.mimeType(forExtension: "more") == "application/x-second")
        #expect(table.mimeType(forExtension: "ignored") == nil)
        #expect(table.mimeType(forExtension: "comment") == nil)
    }

    @Test func keepsTheFirstTypeListedForAnExtension() {
        #expect(table.mimeType(forExtension: "dup") == "application/x-first")
    }

    @Test func ignoresCaseOfExtensions() {
        #expect(table.mimeType(forExtension: "NOTES") == "text/x-notes")
        #expect(table.mimeType(forExtension: "upr") == "image/x-upper")
        #expect(table.mimeType(forPath: "/a/b/File.Upr") == "image/x-upper")
    }

    @Test func fallsBackToOctetStream() {
        #expect(table.mimeType(forPath: "/srv/file.unknown") == "application/octet-stream")
        #expect(table.mimeType(forPath: "no-extension") == "application/octet-stream")
        #expect(table.mimeType(forPath: "trailing-dot.") == "application/octet-stream")
        #expect(table.mimeType(forPath: "/dir.notes/plain") == "application/octet-stream")
        #expect(MIMETypes.defaultMIMEType == "application/octet-stream")
    }

    @Test func consultsTheFallbackTableForMissingExtensions() {
        let layered = MIMETypes(parsing: "text/x-own  png", fallback: .builtIn)
        #expect(layered.mimeType(forExtension: "png") == "text/x-own")
        #expect(layered.mimeType(forExtension: "jpg") == "image/jpeg")
    }

    @Test func builtInTableGivesAFNetworkingCertificateType() {
        #expect(MIMETypes.builtIn.mimeType(forPath: "root.cer") == "application/x-x509-ca-cert")
        #expect(MIMETypes.builtIn.mimeType(forExtension: "json") == "application/json")
        #expect(MIMETypes.builtIn.mimeType(forExtension: "jpeg") == "image/jpeg")
    }

    @Test func systemTableReadsEtcMimeTypesOverTheBuiltInTable() throws {
        let system = MIMETypes.system
        guard FileManager.default.isReadableFile(atPath: MIMETypes.systemTablePath) else {
            #expect(system == MIMETypes.builtIn)
            return
        }
        let fromFile = try MIMETypes(contentsOfFile: MIMETypes.systemTablePath)
        // Debian's media-types lists .cer as application/pkix-cert (RFC 2585); Apple's database,
        // which AFNetworking's test pins, says application/x-x509-ca-cert. The system table wins.
        #expect(system.mimeType(forExtension: "cer") == fromFile.mimeType(forExtension: "cer"))
        #expect(system.mimeType(forExtension: "png") == "image/png")
        #expect(system == (try MIMETypes(contentsOfFile: MIMETypes.systemTablePath, fallback: .builtIn)))
    }

    @Test func reportsAnUnreadableTableFile() {
        do {
            _ = try MIMETypes(contentsOfFile: "/nonexistent/courier/mime.types")
            Issue.record("a missing table was read")
        } catch {
            #expect(error.code == .fileNotReachable)
        }
    }

    @Test func multipartFormTakesFileTypesFromItsTable() throws {
        let path = try MultipartTestFiles.make(Data("x".utf8), name: "cert.cer")
        defer { MultipartTestFiles.remove(path) }
        var form = try MultipartFormData(boundary: "M")
        form.mimeTypes = .builtIn
        try form.appendFile(atPath: path, name: "c")
        form.mimeTypes = MIMETypes(parsing: "application/x-courier-test cer")
        try form.appendFile(at: URL(fileURLWithPath: path), name: "d")
        let parts = try MultipartTestParser.parse(readMultipartBody(form.makeBody()), boundary: "M")
        #expect(
            parts.map { $0.header("Content-Type") } == ["application/x-x509-ca-cert", "application/x-courier-test"]
        )
        #expect(
            parts.map { $0.header("Content-Disposition") } == [
                "form-data; name=\"c\"; filename=\"cert.cer\"", "form-data; name=\"d\"; filename=\"cert.cer\"",
            ]
        )
    }
}
