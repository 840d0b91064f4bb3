import CourierHTTP
import CourierSerialization
import CourierSerializationXML
import FoundationEssentials
import Testing

@Suite struct XMLDocumentResponseSerializerTests {
    typealias Fixtures = XMLTestFixtures

    private func serialize(
        _ text: String,
        status: Int = 200,
        contentType: String? = "text/xml",
        serializer: XMLDocumentResponseSerializer = XMLDocumentResponseSerializer()
    ) throws -> SerializedResponse<XMLTree> {
        serializer.serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: Fixtures.body(text),
            request: nil
        )
    }

    @Test func parsesTheBodyIntoATree() throws {
        let outcome = try serialize(
            #"<rss><channel><item><title>A</title></item><item><title>B</title></item></channel></rss>"#
        )
        #expect(outcome.error == nil)
        let channel = try #require(outcome.value?.root.firstElement(named: "channel"))
        #expect(channel.elements(named: "item").compactMap { $0.firstElement(named: "title")?.text } == ["A", "B"])
        #expect(XMLDocumentResponseSerializer().acceptableContentTypes == ["application/xml", "text/xml"])
    }

    @Test func reportsMalformedXMLWithThePositionAndAFNetworkingsChain() throws {
        let outcome = try serialize("<a>\n  <b>\n</a>", status: 422)
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidXML)
        #expect(error.domain == .response)
        #expect(error.urlErrorCode == 76)
        #expect(error.localizedDescription == "The XML could not be parsed: line 3, column 5.")
        #expect(error.failureReason == "end tag does not match start tag (libxml2 error 76) at line 3, column 5")
        #expect(error.failingURL == Fixtures.url)
        #expect(error.data == Fixtures.body("<a>\n  <b>\n</a>"))
        #expect(Fixtures.chain(error) == ["invalidXML", "unacceptableStatusCode", "XMLParseError"])
        let parseError = try #require((error.underlying as? SerializationError)?.underlying as? XMLParseError)
        #expect(parseError.line == 3)
        let alone = try #require(try serialize("<a>").error)
        #expect(Fixtures.chain(alone) == ["invalidXML", "XMLParseError"])
    }

    @Test func parsesDespiteAStatusFailureAndReportsBoth() throws {
        let outcome = try serialize("<error code=\"42\"/>", status: 404)
        #expect(outcome.value?.root.attributes["code"] == "42")
        #expect(outcome.error?.localizedDescription == "Request failed: not found (404)")
    }

    @Test func stopsOnAnUnacceptableContentTypeBeforeParsing() throws {
        let outcome = try serialize("<<<", status: 500, contentType: "text/html")
        #expect(outcome.value == nil)
        #expect(Fixtures.chain(outcome.error) == ["unacceptableStatusCode", "unacceptableContentType"])
    }

    @Test(arguments: [(204, "text/html"), (200, "application/xml"), (200, "application/octet-stream")])
    func returnsNothingForAnEmptyBody(status: Int, contentType: String) throws {
        let outcome = try serialize("", status: status, contentType: contentType)
        #expect(outcome.value == nil)
        #expect(outcome.error == nil)
    }

    @Test func keepsWhitespaceWhenAsked() throws {
        let text = "<r>\n  <a/>\n</r>"
        #expect(try serialize(text).value?.root.children.count == 1)
        let kept = try serialize(text, serializer: XMLDocumentResponseSerializer(preservesWhitespace: true))
        #expect(kept.value?.root.children.count == 3)
    }

    @Test func neverCrashesOnHostileBodies() throws {
        let deep = String(repeating: "<a>", count: 200_000)
        #expect(try serialize(deep).error?.urlErrorCode == 512)
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let outcome = XMLDocumentResponseSerializer().serializedResponse(
            response: try Fixtures.response(),
            data: binary,
            request: nil
        )
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidXML)
    }
}
