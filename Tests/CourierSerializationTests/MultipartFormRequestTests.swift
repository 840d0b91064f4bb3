import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct MultipartFormRequestTests {
    private let url = URL(string: "https://api.example.com/upload")!

    @Test func putsParameterPartsFirstThenTheConstructedParts() async throws {
        // Given
        let serializer = HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: "test")

        // When
        let request = try await serializer.multipartFormRequest(
            url: url,
            parameters: ["b": "2", "a": ["x": "1"]],
            boundary: "B"
        ) { form in
            try form.append(Data("hi".utf8), name: "note")
        }

        // Then
        let body = String(decoding: try await request.body.collect(upTo: 1 << 16), as: UTF8.self)
        #expect(
            body == "--B\r\nContent-Disposition: form-data; name=\"a[x]\"\r\n\r\n1"
                + "\r\n--B\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2"
                + "\r\n--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--B--\r\n"
        )
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=B")
        #expect(request.headers["Content-Length"] == String(body.utf8.count))
        #expect(request.headers["User-Agent"] == "test")
        #expect(request.method == .post)
    }

    @Test func anEmptyFormKeepsTheFormSerializersEmptyBody() async throws {
        let request = try await HTTPRequestSerializer().multipartFormRequest(method: .put, url: url)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.body.length == 0)
        #expect(request.headers["Content-Length"] == nil)
    }

    @Test(arguments: [HTTPMethod.get, .head, HTTPMethod(rawValue: "get")!])
    func rejectsMethodsWithoutABody(method: HTTPMethod) async {
        await #expect {
            try await HTTPRequestSerializer().multipartFormRequest(method: method, url: url)
        } throws: { error in
            (error as? SerializationError)?.code == .invalidRequest
                && (error as? SerializationError)?.urlErrorCode == -1000
        }
    }

    @Test func anAppenderErrorFailsTheRequest() async {
        await #expect {
            try await HTTPRequestSerializer().multipartFormRequest(url: url) { form in
                try form.appendFile(atPath: "/nonexistent/courier.bin", name: "file")
            }
        } throws: { ($0 as? SerializationError)?.code == .fileNotReachable }
    }
}
