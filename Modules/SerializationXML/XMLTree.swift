/// A parsed XML document as a `Sendable` value tree: what ``XMLDocumentResponseSerializer`` returns.
///
/// AFNetworking's `AFXMLDocumentResponseSerializer` returns an `NSXMLDocument`. On Linux,
/// FoundationXML's `XMLDocument` is a mutable class that is not `Sendable`, and a serializer's output
/// must cross from the task that parses to the task that uses it, so Courier parses into plain
/// values instead: elements with their qualified name, namespace URI, attributes and children. Make
/// an `XMLDocument` from the same bytes when you need XPath or editing.
///
/// Parsing is strict and bounded: the first well-formedness error throws an ``XMLParseError`` with
/// the parser's line and column; external entities are never fetched; libxml2's entity-expansion
/// limit stops "billion laughs" documents; and elements nested deeper than
/// ``maximumDepth`` are refused, so a hostile body cannot exhaust the stack.
///
/// ```swift
/// let tree = try XMLTree(data: Data(#"<feed><entry id="1"><title>Hi</title></entry></feed>"#.utf8))
/// for entry in tree.root.elements(named: "entry") {
///     print(entry.attributes["id"] ?? "", entry.firstElement(named: "title")?.text ?? "")  // 1 Hi
/// }
/// ```
public struct XMLTree: Sendable, Hashable {
    /// The deepest nesting of elements that parsing accepts, as JSON's 512 levels.
    public static let maximumDepth = 512

    /// The root element.
    public var root: Element

    /// Creates a tree around a root element.
    ///
    /// ```swift
    /// let tree = XMLTree(root: XMLTree.Element(name: "empty"))
    /// ```
    public init(root: Element) {
        self.root = root
    }

    /// An element: its name, namespace, attributes and children in document order.
    ///
    /// ```swift
    /// let element = XMLTree.Element(name: "p:item", namespaceURI: "urn:p", attributes: ["id": "7"])
    /// element.localName  // "item"
    /// ```
    public struct Element: Sendable, Hashable {
        /// The qualified name as written, prefix included (`atom:link`).
        public var name: String
        /// The namespace URI the name resolves to; `nil` when it is in no namespace.
        public var namespaceURI: String?
        /// The attributes by qualified name; namespace declarations (`xmlns`) are not attributes.
        public var attributes: [String: String]
        /// The children in document order.
        public var children: [Node]

        /// Creates an element.
        ///
        /// ```swift
        /// let title = XMLTree.Element(name: "title", children: [.text("Hi")])
        /// ```
        public init(
            name: String,
            namespaceURI: String? = nil,
            attributes: [String: String] = [:],
            children: [Node] = []
        ) {
            self.name = name
            self.namespaceURI = namespaceURI
            self.attributes = attributes
            self.children = children
        }

        /// The name without its prefix.
        public var localName: String {
            guard let colon = name.lastIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }

        /// The child elements, in order.
        public var elements: [Element] {
            children.compactMap { node in
                if case .element(let element) = node { return element }
                return nil
            }
        }

        /// The child elements whose qualified or local name is `name`.
        ///
        /// ```swift
        /// tree.root.elements(named: "entry").count
        /// ```
        public func elements(named name: String) -> [Element] {
            elements.filter { $0.name == name || $0.localName == name }
        }

        /// The first child element whose qualified or local name is `name`.
        ///
        /// ```swift
        /// tree.root.firstElement(named: "title")?.text
        /// ```
        public func firstElement(named name: String) -> Element? {
            elements.first { $0.name == name || $0.localName == name }
        }

        /// The text of the direct text children (CDATA included), concatenated.
        public var text: String {
            children.reduce(into: "") { text, node in
                if case .text(let piece) = node { text += piece }
            }
        }
    }

    /// A node in an element's content.
    public enum Node: Sendable, Hashable {
        /// A child element.
        case element(Element)
        /// Character data with entities resolved; CDATA sections are text too, merged with their
        /// neighbours.
        case text(String)
        /// A comment's text, without `<!--` and `-->`.
        case comment(String)
        /// A processing instruction, `<?target data?>`.
        case processingInstruction(target: String, data: String?)
    }
}
