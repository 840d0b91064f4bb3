import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

/// Every serializer that checks content types lets an empty body of another type through, as
/// AFNetworking's validateResponse:data:error: does: a 204 labelled text/html, or a download whose
/// bytes went to a file, is not an error.
@Suite struct EmptyBodyParityTests {
    typealias Fixtures = ResponseTestFixtures

    private static let typed = ResponseValidator(acceptableContentTypes: ["application/x-courier"])

    private func errors(status: Int, data: Data?) throws -> [String: SerializationError?] {
        let response = try Fixtures.response(status, contentType: "text/html")
        let request = Fixtures.request()
        return [
            "data": DataResponseSerializer(validator: Self.typed)
                .serializedResponse(response: response, data: data, request: request).error,
            "string": StringResponseSerializer(validator: Self.typed)
                .serializedResponse(response: response, data: data, request: request).error,
            "json": JSONResponseSerializer()
                .serializedResponse(response: response, data: data, request: request).error,
            "plist": PropertyListResponseSerializer()
                .serializedResponse(response: response, data: data, request: request).error,
            "decodable": DecodableResponseSerializer<EmptyResponseBody>()
                .serializedResponse(response: response, data: data, request: request).error,
            "compound": CompoundResponseSerializer([JSONResponseSerializer()], validator: Self.typed)
                .serializedResponse(response: response, data: data, request: request).error,
        ]
    }

    @Test(arguments: [Data(), nil])
    func acceptsAnEmptyBodyOfAnotherType(data: Data?) throws {
        let errors = try errors(status: 204, data: data)
        #expect(errors.count == 6)
        for (name, error) in errors {
            #expect(error == nil, "\(name): \(String(describing: error))")
        }
    }

    @Test func stillRejectsAOneByteBodyOfAnotherType() throws {
        for (name, error) in try errors(status: 204, data: Fixtures.body(" ")) {
            #expect(error?.contains(.unacceptableContentType) == true, "\(name)")
        }
    }
}
