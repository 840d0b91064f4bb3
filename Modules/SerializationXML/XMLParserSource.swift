public import FoundationEssentials
public import FoundationXML

/// The body of an XML response, ready to be parsed: what ``XMLParserResponseSerializer`` returns.
///
/// AFNetworking's `AFXMLParserResponseSerializer` hands back an unstarted `NSXMLParser` over the
/// body. FoundationXML's `XMLParser` is a class that is not `Sendable` (it holds its delegate and its
/// parse state), and a serializer's output must be, so Courier returns the validated bytes with a
/// factory instead: ``makeParser()`` gives a fresh, unstarted parser each time it is called, on the
/// task that will use it. ``tree(preservingWhitespace:)`` parses into an ``XMLTree`` for callers
/// who want values rather than delegate callbacks.
///
/// ```swift
/// let source = try XMLParserResponseSerializer().serialize(response: response, data: body)
/// if let parser = source?.makeParser() {
///     parser.delegate = myDelegate  // an XMLParserDelegate
///     parser.parse()
/// }
/// ```
public struct XMLParserSource: Sendable, Hashable {
    /// The response body.
    public let data: Data

    /// Wraps a body.
    ///
    /// ```swift
    /// let source = XMLParserSource(data: Data("<a/>".utf8))
    /// ```
    public init(data: Data) {
        self.data = data
    }

    /// A new parser over ``data`` that has not started, with namespace processing on and external
    /// entities never resolved.
    ///
    /// ```swift
    /// let parser = source.makeParser()
    /// parser.delegate = delegate
    /// let finished = parser.parse()
    /// ```
    public func makeParser() -> XMLParser {
        Self.configuredParser(for: data)
    }

    /// Parses ``data`` into a value tree.
    ///
    /// ```swift
    /// let title = try source.tree().root.firstElement(named: "title")?.text
    /// ```
    /// - Throws: ``XMLParseError`` as ``XMLTree/init(data:preservingWhitespace:)``.
    public func tree(preservingWhitespace: Bool = false) throws(XMLParseError) -> XMLTree {
        try XMLTree(data: data, preservingWhitespace: preservingWhitespace)
    }

    /// The one place parsers are configured, so the tree and the factory parse alike.
    static func configuredParser(for data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        // A response must never make the client read local files or fetch URLs (XXE).
        parser.shouldResolveExternalEntities = false
        return parser
    }
}
