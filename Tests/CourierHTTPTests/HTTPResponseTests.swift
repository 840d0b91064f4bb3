import CourierHTTP
import Foundation
import Testing

@Suite struct HTTPResponseTests {
    private func response(contentType: String?, length: String? = nil) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { try headers.add(name: "content-type", value: contentType) }
        if let length { try headers.add(name: "Content-Length", value: length) }
        return HTTPResponse(status: .ok, headers: headers)
    }

    @Test func mimeTypeDropsParametersAndLowercases() throws {
        #expect(try response(contentType: "Text/HTML ; charset=UTF-8").mimeType == "text/html")
        #expect(try response(contentType: "application/json").mimeType == "application/json")
        #expect(try response(contentType: "").mimeType == nil)
        #expect(try response(contentType: nil).mimeType == nil)
    }

    @Test func charsetIsUnquotedAndLowercased() throws {
        #expect(try response(contentType: "text/plain; charset=\"ISO-8859-1\"").textEncodingName == "iso-8859-1")
        #expect(
            try response(contentType: "text/plain;format=flowed; Charset = UTF-16LE").textEncodingName == "utf-16le"
        )
        #expect(try response(contentType: "text/plain").textEncodingName == nil)
    }

    @Test func contentLengthMustBeAPlainNumber() throws {
        #expect(try response(contentType: nil, length: "1024").expectedContentLength == 1024)
        #expect(try response(contentType: nil, length: " 7 ").expectedContentLength == 7)
        #expect(try response(contentType: nil, length: "-1").expectedContentLength == nil)
        #expect(try response(contentType: nil, length: "12, 12").expectedContentLength == nil)
        #expect(try response(contentType: nil, length: "99999999999999999999999").expectedContentLength == nil)
    }

    @Test func whitespaceTrimmingKeepsMultibyteTextWhole() throws {
        #expect(try response(contentType: "\t text/plain; charset=\" \t").mimeType == "text/plain")
        #expect(try response(contentType: "text/plain; charset= utf-8 ").textEncodingName == "utf-8")
        #expect(try response(contentType: " \t ").mimeType == nil)
        // Only ASCII spaces and tabs go; a multibyte character at either end stays whole.
        #expect(try response(contentType: " tëxt/é ").mimeType == "tëxt/é")
    }

    @Test func versionsDescribeThemselves() {
        #expect(HTTPResponse.Version.http2.description == "HTTP/2")
        #expect(HTTPResponse.Version.http1_1.description == "HTTP/1.1")
    }
}
