import CourierHTTP
import CourierSerialization
import CourierSerializationXML
import Foundation
import FoundationXML
import Testing

@Suite struct XMLParserResponseSerializerTests {
    typealias Fixtures = XMLTestFixtures

    /// Collects element names, to show that a parser from the source really parses the body.
    private final class NameCollector: NSObject, XMLParserDelegate {
        var names: [String] = []

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            names.append(elementName)
        }
    }

    @Test func acceptsAFNetworkingsXMLTypesOnly() {
        #expect(XMLParserResponseSerializer.defaultAcceptableContentTypes == ["application/xml", "text/xml"])
        #expect(XMLParserResponseSerializer().acceptableContentTypes == ["application/xml", "text/xml"])
        #expect(XMLParserResponseSerializer().acceptableStatusCodes == Set(200...299))
    }

    @Test(arguments: ["application/xml", "text/xml", "text/xml; charset=utf-8"])
    func handsBackTheBodyForAFreshParserEachTime(contentType: String) throws {
        let body = Fixtures.body("<feed><entry/><entry/></feed>")
        let outcome = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(contentType: contentType),
            data: body,
            request: nil
        )
        #expect(outcome.error == nil)
        let source = try #require(outcome.value)
        #expect(source.data == body)
        for _ in 0..<2 {
            let collector = NameCollector()
            let parser = source.makeParser()
            parser.delegate = collector
            #expect(parser.parse())
            #expect(collector.names == ["feed", "entry", "entry"])
        }
        #expect(try source.tree().root.elements.count == 2)
    }

    @Test func doesNotParseAtSerializationTimeAsAFNetworking() throws {
        let outcome = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(),
            data: Fixtures.body("<not closed"),
            request: nil
        )
        #expect(outcome.error == nil)
        let error = #expect(throws: XMLParseError.self) { try outcome.value?.tree() }
        #expect(error?.line == 1)
    }

    @Test func stopsOnAnUnacceptableContentType() throws {
        let outcome = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(contentType: "application/json"),
            data: Fixtures.body("{}"),
            request: nil
        )
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .unacceptableContentType)
        #expect(outcome.error?.urlErrorCode == -1016)
        #expect(outcome.error?.localizedDescription == "Request failed: unacceptable content-type: application/json")
    }

    @Test func returnsTheBodyWithAStatusError() throws {
        let outcome = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(500),
            data: Fixtures.body("<error/>"),
            request: nil
        )
        #expect(outcome.value?.data == Fixtures.body("<error/>"))
        #expect(outcome.error?.urlErrorCode == -1011)
        #expect(outcome.error?.localizedDescription == "Request failed: internal server error (500)")
    }

    @Test func acceptsAnEmptyBodyOfAnyTypeAndNoBodyAtAll() throws {
        let empty = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(204, contentType: "text/html"),
            data: Data(),
            request: nil
        )
        #expect(empty.error == nil)
        #expect(empty.value == XMLParserSource(data: Data()))
        let missing = XMLParserResponseSerializer().serializedResponse(
            response: try Fixtures.response(204, contentType: nil),
            data: nil,
            request: nil
        )
        #expect(missing.value == nil)
        #expect(missing.error == nil)
    }
}
