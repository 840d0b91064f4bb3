import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct PropertyListRequestSerializerTests {
    private let base = HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: nil)

    @Test func writesAnXMLPropertyListByDefault() throws {
        let serializer = PropertyListRequestSerializer(base: base)
        let request = try serializer.request(method: .post, urlString: "http://x.test/", parameters: ["a": 1])
        let text = String(decoding: request.body.bytes ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(text.contains("<key>a</key>\n\t<integer>1</integer>"))
        #expect(request.headers["Content-Type"] == "application/x-plist")
        #expect(request.headers["User-Agent"] == nil)
    }

    @Test func writesABinaryPropertyListThatDecodesBack() throws {
        let serializer = PropertyListRequestSerializer(base: base, format: .binary)
        let parameters: Parameters = [
            "s": "text", "i": -7, "d": 2.5, "b": true, "data": .data(Data([0, 255])), "list": ["x", ["y": 1]],
        ]
        let request = try serializer.request(method: .put, urlString: "http://x.test/", parameters: parameters)
        let body = try #require(request.body.bytes)
        #expect(body.starts(with: Data("bplist00".utf8)))
        let decoded = try #require(
            try PropertyListSerialization.propertyList(from: body, format: nil) as? [String: Any]
        )
        #expect(decoded["s"] as? String == "text")
        #expect(decoded["i"] as? Int == -7)
        #expect(decoded["d"] as? Double == 2.5)
        #expect(decoded["b"] as? Bool == true)
        #expect(decoded["data"] as? Data == Data([0, 255]))
    }

    @Test func writesNoBodyForNilParameters() throws {
        let request = try PropertyListRequestSerializer(base: base).request(method: .post, urlString: "http://x.test/")
        #expect(request.body.kind == .empty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func delegatesURIMethodsToTheFormSerializer() throws {
        let request = try PropertyListRequestSerializer(base: base)
            .request(method: .delete, urlString: "http://x.test/i", parameters: ["a": 1])
        #expect(request.url.absoluteString == "http://x.test/i?a=1")
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func rejectsNullsAndSets() {
        for parameters in [["n": nil], ["s": .set([1])], ["deep": [["n": nil]]]] as [Parameters] {
            let error = #expect(throws: SerializationError.self) {
                try PropertyListRequestSerializer(base: base).request(
                    method: .post,
                    urlString: "http://x.test/",
                    parameters: parameters
                )
            }
            #expect(error?.code == .invalidPropertyListParameters)
            #expect(error?.domain == .request)
            #expect(error?.underlying is EncodingError)
        }
    }
}
