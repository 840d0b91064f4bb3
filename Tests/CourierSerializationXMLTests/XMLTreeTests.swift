import CourierSerializationXML
import FoundationEssentials
import Testing

@Suite struct XMLTreeTests {
    @Test func parsesElementsAttributesTextAndOrder() throws {
        let tree = try XMLTree(
            data: Data(
                #"""
                <?xml version="1.0" encoding="UTF-8"?>
                <feed version="2">
                  <entry id="1"><title>Caf&#xE9; &amp; bar</title></entry>
                  <entry id="2"><title>Two</title><empty/></entry>
                </feed>
                """#.utf8
            )
        )
        #expect(tree.root.name == "feed")
        #expect(tree.root.attributes == ["version": "2"])
        #expect(tree.root.elements.map(\.name) == ["entry", "entry"])
        #expect(tree.root.elements(named: "entry").map { $0.attributes["id"] } == ["1", "2"])
        let first = try #require(tree.root.firstElement(named: "entry"))
        #expect(first.firstElement(named: "title")?.text == "Café & bar")
        #expect(
            tree.root.elements[1]
                == XMLTree.Element(
                    name: "entry",
                    attributes: ["id": "2"],
                    children: [
                        .element(.init(name: "title", children: [.text("Two")])), .element(.init(name: "empty")),
                    ]
                )
        )
    }

    @Test func resolvesNamespacesAndKeepsQualifiedNames() throws {
        let tree = try XMLTree(
            data: Data(#"<r xmlns="urn:default" xmlns:p="urn:p"><p:item p:k="v"/><plain/></r>"#.utf8)
        )
        #expect(tree.root.namespaceURI == "urn:default")
        let item = try #require(tree.root.firstElement(named: "item"))
        #expect(item.name == "p:item")
        #expect(item.localName == "item")
        #expect(item.namespaceURI == "urn:p")
        #expect(item.attributes == ["p:k": "v"])
        #expect(tree.root.firstElement(named: "p:item") == item)
        #expect(tree.root.elements.last?.namespaceURI == "urn:default")
        let bare = try XMLTree(data: Data("<bare/>".utf8))
        #expect(bare.root.namespaceURI == nil)
    }

    @Test func keepsCommentsInstructionsAndCDATAAsText() throws {
        let tree = try XMLTree(data: Data("<r>a<![CDATA[<b>&]]>c<!-- note --><?tool run?></r>".utf8))
        #expect(
            tree.root.children == [
                .text("a<b>&c"), .comment(" note "), .processingInstruction(target: "tool", data: "run"),
            ]
        )
    }

    @Test func dropsIndentationUnlessAsked() throws {
        let data = Data("<r>\n  <a/>\n  <b> x </b>\n</r>".utf8)
        #expect(try XMLTree(data: data).root.children.count == 2)
        #expect(try XMLTree(data: data).root.elements[1].text == " x ")
        let kept = try XMLTree(data: data, preservingWhitespace: true)
        #expect(kept.root.children.first == .text("\n  "))
        #expect(kept.root.children.count == 5)
    }

    @Test(arguments: [
        ("<a>\n<b>t</b>\n<c></a>", 76, 3, 8),
        ("<a/>junk", 5, 1, 5),
        ("<r>&nope;</r>", 26, 1, 10),
        ("<r a='1'", 65, 1, 9),
    ])
    func reportsTheFirstErrorWithItsPosition(text: String, code: Int, line: Int, column: Int) {
        let error = #expect(throws: XMLParseError.self) { try XMLTree(data: Data(text.utf8)) }
        #expect(error?.code == code)
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.description.hasSuffix("at line \(line), column \(column)") == true)
    }

    @Test func namesTheParsersErrorCode() {
        let error = #expect(throws: XMLParseError.self) { try XMLTree(data: Data("<a><b></a>".utf8)) }
        #expect(error?.reason == "end tag does not match start tag (libxml2 error 76)")
        #expect(error?.description == "end tag does not match start tag (libxml2 error 76) at line 1, column 11")
    }

    @Test(arguments: [("", 4, 0), (#"<?xml version="1.0"?>"#, 5, 22), ("<!-- only a comment -->", 5, 24)])
    func refusesADocumentWithoutARoot(text: String, code: Int, column: Int) {
        // libxml2 reports a prolog with no element as an early end (5); no bytes at all never reach
        // it, and Courier reports its own empty-document error (4).
        let error = #expect(throws: XMLParseError.self) { try XMLTree(data: Data(text.utf8)) }
        #expect(error?.code == code)
        #expect(error?.column == column)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = XMLTree.maximumDepth
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        var element = try XMLTree(data: Data(text.utf8)).root
        var levels = 1
        while let child = element.elements.first {
            element = child
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test(arguments: [XMLTree.maximumDepth + 1, 100_000])
    func refusesDeeperNestingWithoutCrashing(depth: Int) {
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = #expect(throws: XMLParseError.self) { try XMLTree(data: Data(text.utf8)) }
        #expect(error?.code == 512)
        #expect(error?.reason == "elements nested deeper than 512 levels")
        #expect(error?.column == 3 * (XMLTree.maximumDepth + 1))
    }

    @Test func stopsEntityExpansionBombs() {
        var text = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            text += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        text += "]><lolz>&lol9;</lolz>"
        let error = #expect(throws: XMLParseError.self) { try XMLTree(data: Data(text.utf8)) }
        #expect(error?.code == 89)
    }

    @Test func neverReadsExternalEntities() throws {
        let text = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        let tree = try XMLTree(data: Data(text.utf8))
        #expect(!tree.root.text.contains("root:"))
        #expect(tree.root.text.isEmpty)
    }
}
