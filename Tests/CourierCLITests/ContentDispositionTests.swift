import Testing

@testable import CourierCLI

/// `--download`'s name from `Content-Disposition` (RFC 6266): a bare name or nothing.
@Suite struct ContentDispositionTests {
    @Test(arguments: [
        ("attachment; filename=report.pdf", "report.pdf"),
        ("attachment; filename=\"annual report.pdf\"", "annual report.pdf"),
        ("attachment; filename=\"a\\\"b.txt\"", "a\"b.txt"),
        ("attachment; filename=\"plain.txt\"; filename*=UTF-8''%e2%82%ac%20rates.txt", "€ rates.txt"),
        ("attachment; FILENAME*=iso-8859-1'en'caf%E9.txt", "café.txt"),
    ])
    func aBareNameIsTaken(header: String, name: String) {
        #expect(ContentDisposition.fileName(from: header) == name)
    }

    @Test(arguments: [
        "attachment; filename=../../etc/passwd",
        "attachment; filename=\"/tmp/x\"",
        "attachment; filename=\"dir\\\\x\"",
        "attachment; filename=..",
        "attachment; filename=.bashrc",
        "attachment; filename*=UTF-8''bell%07.txt",
        "attachment; filename*=UTF-8''a%2Fb",
        "attachment",
        "inline; name=x",
    ])
    func aPathDotsOrControlCharactersAreRefused(header: String) {
        #expect(ContentDisposition.fileName(from: header) == nil)
    }

    @Test func aRefusedExtendedNameFallsBackToThePlainOne() {
        #expect(ContentDisposition.fileName(from: "attachment; filename*=UTF-8''..; filename=ok.txt") == "ok.txt")
    }
}
