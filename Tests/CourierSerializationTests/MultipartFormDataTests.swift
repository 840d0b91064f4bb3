import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct MultipartFormDataTests {
    private func text(_ body: HTTPBody) throws -> String {
        String(decoding: try readMultipartBody(body), as: UTF8.self)
    }

    @Test func generatesBoundaryInAFNetworkingFormat() {
        let first = MultipartFormData().boundary
        let second = MultipartFormData().boundary
        #expect(first.count == 25)
        #expect(first.hasPrefix("Boundary+"))
        #expect(first.dropFirst(9).allSatisfy { "0123456789ABCDEF".contains($0) })
        #expect(first != second)
    }

    @Test func acceptsBoundariesThatRFC2046Allows() throws {
        let boundary = "aZ09'()+_,-./:=? x"
        let form = try MultipartFormData(boundary: boundary)
        #expect(form.boundary == boundary)
        #expect(try MultipartFormData(boundary: String(repeating: "b", count: 70)).boundary.count == 70)
    }

    @Test func rejectsBoundariesThatRFC2046Forbids() {
        for bad in ["", String(repeating: "b", count: 71), "ends with space ", "semi;colon", "quo\"te", "é", "a\r\nb"] {
            #expect(throws: SerializationError.self, "\(bad.debugDescription)") {
                try MultipartFormData(boundary: bad)
            }
            do {
                _ = try MultipartFormData(boundary: bad)
            } catch {
                #expect(error.code == .invalidRequest)
                #expect(error.domain == .request)
            }
        }
    }

    @Test func writesContentTypeWithoutQuotesUnlessTheBoundaryNeedsThem() throws {
        #expect(
            try MultipartFormData(boundary: "Boundary+0123ABCD4567EF89").contentType
                == "multipart/form-data; boundary=Boundary+0123ABCD4567EF89"
        )
        #expect(try MultipartFormData(boundary: "a b:c").contentType == "multipart/form-data; boundary=\"a b:c\"")
    }

    @Test func encodesOnePartExactly() throws {
        var form = try MultipartFormData(boundary: "XyZ")
        try form.append(Data("value".utf8), name: "key")
        let expected = "--XyZ\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nvalue\r\n--XyZ--\r\n"
        #expect(try text(form.makeBody()) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
        #expect(try form.makeBody().length == Int64(expected.utf8.count))
    }

    @Test func encodesSeveralPartsExactly() throws {
        var form = try MultipartFormData(boundary: "B0")
        try form.append(Data("1".utf8), name: "a")
        try form.append(Data("<svg/>".utf8), name: "pic", fileName: "p.svg", mimeType: "image/svg+xml")
        try form.append(Data(), name: "empty")
        let expected =
            "--B0\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"
            + "\r\n--B0\r\nContent-Disposition: form-data; name=\"pic\"; filename=\"p.svg\"\r\n"
            + "Content-Type: image/svg+xml\r\n\r\n<svg/>"
            + "\r\n--B0\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n"
            + "\r\n--B0--\r\n"
        #expect(try text(form.makeBody()) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
        #expect(form.count == 3)
    }

    @Test func matchesAFNetworkingLengthFormula() throws {
        let boundary = "Boundary+0000000100000002"
        var form = try MultipartFormData(boundary: boundary)
        try form.append(Data(repeating: 7, count: 10), name: "n")
        try form.append(Data(repeating: 8, count: 3), name: "f", fileName: "x", mimeType: "a/b")
        let b = Int64(boundary.utf8.count)
        let disposition1 = Int64("Content-Disposition".count + 2 + "form-data; name=\"n\"".count + 2)
        let disposition2 = Int64("Content-Disposition".count + 2 + "form-data; name=\"f\"; filename=\"x\"".count + 2)
        let type2 = Int64("Content-Type".count + 2 + "a/b".count + 2)
        let expected = (b + 4) + (disposition1 + 2) + 10 + (b + 6) + (disposition2 + type2 + 2) + 3 + (b + 8)
        #expect(form.contentLength == expected)
        #expect(Int64(try readMultipartBody(form.makeBody()).count) == expected)
    }

    @Test func encodesFilePartWithNameAndTypeFromThePath() throws {
        let path = try MultipartTestFiles.make(Data("PEM".utf8), name: "root.png")
        defer { MultipartTestFiles.remove(path) }
        var form = try MultipartFormData(boundary: "F")
        try form.appendFile(at: URL(fileURLWithPath: path), name: "cert")
        let expected =
            "--F\r\nContent-Disposition: form-data; name=\"cert\"; filename=\"root.png\"\r\n"
            + "Content-Type: image/png\r\n\r\nPEM\r\n--F--\r\n"
        #expect(try text(form.makeBody()) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func encodesFilePartWithExplicitNameAndType() throws {
        let path = try MultipartTestFiles.make(Data([0, 1, 2]))
        defer { MultipartTestFiles.remove(path) }
        var form = try MultipartFormData(boundary: "F")
        try form.appendFile(atPath: path, name: "f", fileName: "data.raw", mimeType: "application/x-raw")
        let expected =
            "--F\r\nContent-Disposition: form-data; name=\"f\"; filename=\"data.raw\"\r\n"
            + "Content-Type: application/x-raw\r\n\r\n\u{0}\u{1}\u{2}\r\n--F--\r\n"
        #expect(try text(form.makeBody()) == expected)
    }

    @Test func encodesStreamSourcePart() throws {
        var form = try MultipartFormData(boundary: "S")
        try form.append(
            source: MultipartTestSource(actual: Data("streamed!".utf8), declared: 9),
            name: "s",
            fileName: "s.txt",
            mimeType: "text/plain"
        )
        let expected =
            "--S\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nstreamed!\r\n--S--\r\n"
        #expect(try text(form.makeBody()) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func encodesParameterPartsFromNestedParameters() throws {
        var form = try MultipartFormData(boundary: "P")
        try form.appendParts(from: [
            "user": ["name": "Ada", "tags": ["x", "y"]],
            "n": 3,
            "b": true,
            "nothing": nil,
            "raw": .data(Data([0xFF, 0x00])),
            "set": .set(["b", "a"]),
            "gone": [],
        ])
        func part(_ name: String, _ value: String) -> String {
            "Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)"
        }
        let parts = [
            part("b", "1"), part("n", "3"), part("nothing", ""), part("raw", "\u{FF}\u{0}"), part("set", "a"),
            part("set", "b"), part("user[name]", "Ada"), part("user[tags][]", "x"), part("user[tags][]", "y"),
        ]
        let body = try readMultipartBody(form.makeBody())
        #expect(Array(body).contains(0xFF))
        let expected = "--P\r\n" + parts.joined(separator: "\r\n--P\r\n") + "\r\n--P--\r\n"
        // The raw part is not UTF-8, so compare bytes with the two raw bytes put back.
        var expectedBytes = Data(expected.utf8)
        let marker = Data("\u{FF}\u{0}".utf8)
        if let range = expectedBytes.range(of: marker) { expectedBytes.replaceSubrange(range, with: [0xFF, 0x00]) }
        #expect(body == expectedBytes)
        #expect(form.contentLength == Int64(body.count))
    }

    @Test func escapesQuotesCarriageReturnsAndLineFeedsInNames() throws {
        var form = try MultipartFormData(boundary: "E")
        try form.append(
            Data("v".utf8),
            name: "a\"b\r\nc",
            fileName: "evil\".txt\r\nX-Injected: 1",
            mimeType: "text/plain"
        )
        try form.append(Data("w".utf8), name: "ünï %22 ok")
        let expected =
            "--E\r\nContent-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"evil%22.txt%0D%0AX-Injected: 1\"\r\n"
            + "Content-Type: text/plain\r\n\r\nv"
            + "\r\n--E\r\nContent-Disposition: form-data; name=\"ünï %22 ok\"\r\n\r\nw\r\n--E--\r\n"
        #expect(try text(form.makeBody()) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func ordersPartHeadersDispositionThenTypeThenTheRest() throws {
        var form = try MultipartFormData(boundary: "H")
        let headers = try HTTPHeaders([
            ("X-First", "1"), ("content-type", "application/json"), ("X-Second", "2"),
            ("Content-Disposition", "form-data; name=\"meta\""),
        ])
        try form.append(headers: headers, body: Data("{}".utf8))
        let expected =
            "--H\r\nContent-Disposition: form-data; name=\"meta\"\r\ncontent-type: application/json\r\n"
            + "X-First: 1\r\nX-Second: 2\r\n\r\n{}\r\n--H--\r\n"
        #expect(try text(form.makeBody()) == expected)
    }

    @Test func rejectsValuesThatNoHeaderCanCarry() throws {
        var form = MultipartFormData()
        #expect(throws: SerializationError.self) { try form.append(Data(), name: "nul\u{0}") }
        #expect(throws: SerializationError.self) {
            try form.append(Data(), name: "f", fileName: "f", mimeType: "text/plain\r\nX-Evil: 1")
        }
        #expect(throws: HTTPValueError.self) { try HTTPHeaders([("Bad Name", "v")]) }
        #expect(form.isEmpty)
    }

    @Test func rejectsNonFileURLWithAFNetworkingError() throws {
        var form = MultipartFormData()
        let url = try #require(URL(string: "https://example.com/a.png"))
        var errors: [SerializationError] = []
        do {
            try form.appendFile(at: url, name: "f")
        } catch {
            errors.append(error)
        }
        do {
            try form.appendFile(at: url, name: "f", fileName: "a.png", mimeType: "image/png")
        } catch {
            errors.append(error)
        }
        #expect(errors.count == 2)
        for error in errors {
            #expect(error.code == .notAFileURL)
            #expect(error.domain == .request)
            #expect(error.urlErrorCode == -1000)
            #expect(error.failureReason == "Expected URL to be a file URL")
            #expect(error.failingURL == url)
        }
        #expect(form.isEmpty)
    }

    @Test func rejectsMissingOrUnreadableFilesWithAFNetworkingError() throws {
        let directory = try MultipartTestFiles.make(Data())
        defer { MultipartTestFiles.remove(directory) }
        var form = MultipartFormData()
        for path in ["/nonexistent/courier/file.bin", (directory as NSString).deletingLastPathComponent] {
            do {
                try form.appendFile(at: URL(fileURLWithPath: path), name: "f", fileName: "f", mimeType: "a/b")
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.code == .fileNotReachable)
                #expect(error.urlErrorCode == -1000)
                #expect(error.failureReason == "File URL not reachable.")
            }
        }
        #expect(form.isEmpty)
    }

    @Test func rejectsStreamsWithoutAUsableLength() throws {
        var form = MultipartFormData()
        #expect(throws: SerializationError.self) {
            try form.append(
                source: MultipartTestSource(actual: Data(), declared: nil),
                name: "s",
                fileName: "s",
                mimeType: "a/b"
            )
        }
        #expect(throws: SerializationError.self) {
            try form.append(
                stream: AsyncThrowingStream<Data, any Error> { $0.finish() },
                length: -1,
                name: "s",
                fileName: "s",
                mimeType: "a/b"
            )
        }
        #expect(throws: SerializationError.self) {
            try form.append(
                source: MultipartTestSource(actual: Data(), declared: .max),
                name: "s",
                fileName: "s",
                mimeType: "a/b"
            )
        }
        #expect(form.isEmpty)
    }

    @Test func leavesTheRequestUnchangedWhenThereAreNoParts() throws {
        let form = MultipartFormData()
        var request = HTTPRequest(method: .post, url: try #require(URL(string: "https://example.com/")))
        try request.headers.set(name: "Content-Type", value: "application/x-www-form-urlencoded")
        try form.apply(to: &request)
        #expect(form.isEmpty)
        #expect(form.contentLength == 0)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.headers["Content-Length"] == nil)
        #expect(request.body.kind == .empty)
        #expect(try form.makeBody().kind == .empty)
    }

    @Test func appliesBodyContentTypeAndLengthToARequest() throws {
        var form = try MultipartFormData(boundary: "R")
        try form.append(Data("v".utf8), name: "k")
        var request = HTTPRequest(method: .post, url: try #require(URL(string: "https://example.com/")))
        try request.headers.set(name: "content-type", value: "application/x-www-form-urlencoded")
        try form.apply(to: &request)
        #expect(request.headers.values(for: "Content-Type") == ["multipart/form-data; boundary=R"])
        #expect(request.headers["Content-Length"] == "59")
        #expect(request.body.length == 59)
        #expect(request.body.kind == .stream)
    }
}
