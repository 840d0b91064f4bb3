internal import Foundation
internal import FoundationXML

/// The `XMLParser` delegate that builds an ``XMLTree`` with an explicit stack (never recursion), and
/// keeps the *first* error with the position at which it was reported: FoundationXML's `parse()`
/// can return `true` after an error and its `parserError` holds only the last one.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private let preservingWhitespace: Bool
    private var stack: [XMLTree.Element] = []
    private var pendingText = ""
    private(set) var root: XMLTree.Element?
    private(set) var firstError: XMLParseError?

    init(preservingWhitespace: Bool) {
        self.preservingWhitespace = preservingWhitespace
    }

    /// Parses `data` into a tree, or throws the first error.
    static func tree(from data: Data, preservingWhitespace: Bool) throws(XMLParseError) -> XMLTree {
        let parser = XMLParserSource.configuredParser(for: data)
        let builder = XMLTreeBuilder(preservingWhitespace: preservingWhitespace)
        parser.delegate = builder
        let succeeded = parser.parse()
        if let firstError = builder.firstError { throw firstError }
        if !succeeded {
            let code = (parser.parserError as NSError?)?.code ?? XMLParseError.internalErrorCode
            throw XMLParseError(
                code: code,
                line: parser.lineNumber,
                column: parser.columnNumber,
                reason: XMLParseError.reason(for: code)
            )
        }
        guard let root = builder.root else {
            throw XMLParseError(
                code: XMLParseError.emptyDocumentCode,
                line: parser.lineNumber,
                column: parser.columnNumber,
                reason: "the document has no root element"
            )
        }
        return XMLTree(root: root)
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        flushText()
        guard stack.count < XMLTree.maximumDepth else {
            record(
                XMLParseError.nestingTooDeepCode,
                "elements nested deeper than \(XMLTree.maximumDepth) levels",
                parser
            )
            parser.abortParsing()
            return
        }
        let namespace = namespaceURI.flatMap { $0.isEmpty ? nil : $0 }
        stack.append(XMLTree.Element(name: qName ?? elementName, namespaceURI: namespace, attributes: attributeDict))
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        flushText()
        guard let element = stack.popLast() else { return }
        append(.element(element))
        if stack.isEmpty, root == nil { root = element }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        pendingText += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        pendingText += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
        flushText()
        append(.comment(comment))
    }

    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        flushText()
        append(.processingInstruction(target: target, data: data))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        record((parseError as NSError).code, XMLParseError.reason(for: (parseError as NSError).code), parser)
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        record((validationError as NSError).code, XMLParseError.reason(for: (validationError as NSError).code), parser)
    }

    private func record(_ code: Int, _ reason: String, _ parser: XMLParser) {
        guard firstError == nil else { return }
        firstError = XMLParseError(code: code, line: parser.lineNumber, column: parser.columnNumber, reason: reason)
    }

    /// Adds a node to the open element; nodes outside the root (prolog comments) are not kept.
    private func append(_ node: XMLTree.Node) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].children.append(node)
    }

    /// Text arrives in pieces; it becomes one node when markup interrupts it. Whitespace-only text
    /// between elements is indentation unless the caller wants it, as `XMLDocument` drops it too.
    private func flushText() {
        defer { pendingText = "" }
        guard !pendingText.isEmpty else { return }
        let isWhitespace = pendingText.unicodeScalars.allSatisfy { [" ", "\t", "\r", "\n"].contains($0) }
        if preservingWhitespace || !isWhitespace {
            append(.text(pendingText))
        }
    }
}
