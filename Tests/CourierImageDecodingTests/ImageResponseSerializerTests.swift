import CourierHTTP
import CourierImageCache
import CourierImageDecoding
import CourierSerialization
import Foundation
import Testing

@Suite struct ImageResponseSerializerTests {
    let url = URL(string: "https://images.test/gradient")!

    func response(_ code: Int = 200, contentType: String?) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { try headers.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(status: HTTPStatus(code: code), headers: headers, url: url)
    }

    @Test func acceptsAFNetworkingsImageTypesAndWebP() {
        #expect(
            ImageResponseSerializer().acceptableContentTypes == [
                "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon", "image/bmp",
                "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap", "image/webp",
            ]
        )
    }

    @Test(arguments: [
        ("gradient-rgba.png", "image/png"), ("gradient.jpg", "image/jpeg"), ("gradient-lossy.webp", "image/webp"),
    ])
    func decodesAnAcceptableImage(name: String, contentType: String) throws {
        let serializer = ImageResponseSerializer(scale: 3)

        let outcome = serializer.serializedResponse(
            response: try response(contentType: contentType),
            data: try Fixture.data(name),
            request: nil
        )

        #expect(outcome.error == nil)
        #expect(outcome.value?.width == 37)
        #expect(outcome.value?.scale == 3)
    }

    @Test func anUnacceptableContentTypeIsNotDecoded() throws {
        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(contentType: "text/html"),
            data: try Fixture.data("gradient-rgba.png"),
            request: nil
        )

        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .unacceptableContentType)
    }

    @Test func aStatusErrorStillDecodesTheImage() throws {
        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(404, contentType: "image/png"),
            data: try Fixture.data("gradient-rgba.png"),
            request: nil
        )

        #expect(outcome.value?.width == 37)
        #expect(outcome.error?.code == .unacceptableStatusCode)
    }

    @Test func anUndecodableBodyIsATypedError() throws {
        let truncated = try Fixture.data("gradient.jpg").prefix(100)

        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(contentType: "image/jpeg"),
            data: truncated,
            request: nil
        )

        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .decodingFailed)
        #expect(outcome.error?.urlErrorCode == -1016)
        #expect(outcome.error?.failingURL == url)
        #expect((outcome.error?.underlying as? ImageDecodingError)?.code == .corrupt)
    }

    @Test func aGIFPassesValidationButIsAnUnsupportedFormat() throws {
        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(contentType: "image/gif"),
            data: Data("GIF89a\u{1}\0\u{1}\0".utf8),
            request: nil
        )

        #expect(outcome.error?.code == .decodingFailed)
        #expect((outcome.error?.underlying as? ImageDecodingError)?.code == .unsupportedFormat)
    }

    @Test func aStatusErrorAndAnUndecodableBodyChain() throws {
        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(500, contentType: "image/png"),
            data: Data("not a png".utf8),
            request: nil
        )

        #expect(outcome.error?.code == .unacceptableStatusCode)
        #expect((outcome.error?.underlying as? SerializationError)?.code == .decodingFailed)
    }

    @Test func anEmptyBodyIsAnError() throws {
        let outcome = ImageResponseSerializer().serializedResponse(
            response: try response(contentType: "image/png"),
            data: Data(),
            request: nil
        )

        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .emptyResponse)
    }
}
