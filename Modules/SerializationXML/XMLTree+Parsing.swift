public import FoundationEssentials

extension XMLTree {
    /// Parses `data` into a tree.
    ///
    /// ```swift
    /// let tree = try XMLTree(data: Data("<a><b>1</b><b>2</b></a>".utf8))
    /// tree.root.elements(named: "b").map(\.text)  // ["1", "2"]
    /// ```
    /// - Parameters:
    ///   - data: The document; its encoding comes from its XML declaration (UTF-8 by default).
    ///   - preservingWhitespace: Whether whitespace-only text between elements is kept as
    ///     ``Node/text(_:)``; `false` by default, as `XMLDocument` drops it.
    /// - Throws: ``XMLParseError`` for the first well-formedness error, for a document without a root
    ///   element, and for nesting deeper than ``maximumDepth``.
    public init(data: Data, preservingWhitespace: Bool = false) throws(XMLParseError) {
        self = try XMLTreeBuilder.tree(from: data, preservingWhitespace: preservingWhitespace)
    }
}
