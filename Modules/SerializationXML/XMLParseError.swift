/// Why a body is not well-formed XML, and where the parser stopped.
///
/// `code` is the parser's error code, which is libxml2's `xmlParserErrors` number and Apple's
/// `NSXMLParserError` value alike: `76` for a mismatched end tag, `5` for content after the root
/// element, `26` for an undeclared entity, `89` when entity expansion exceeds libxml2's limit.
/// (FoundationXML's `XMLParser.ErrorCode` enum numbers its cases differently on Linux, so the
/// codes are kept as numbers.) Courier adds two of Apple's: `4` for a document without a root
/// element and `512` (delegate aborted) for nesting deeper than ``XMLTree/maximumDepth``.
/// `line` and `column` are the parser's position when it reported the first error, counted from 1.
///
/// ```swift
/// do {
///     _ = try XMLTree(data: Data("<a><b></a>".utf8))
/// } catch {
///     print(error.code, error.line, error.column)  // 76 1 11
///     print(error.reason)  // "end tag does not match start tag (libxml2 error 76)"
/// }
/// ```
public struct XMLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The parser's error code (`XMLParser.ErrorCode.rawValue`).
    public let code: Int
    /// The line of the first error, from 1; 0 when the parser had read nothing.
    public let line: Int
    /// The column of the first error, from 1; 0 when the parser had read nothing.
    public let column: Int
    /// What went wrong, for people: a short explanation of common codes, and the number.
    public let reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// let error = XMLParseError(code: 4, line: 0, column: 0, reason: "the document has no root element")
    /// ```
    public init(code: Int, line: Int, column: Int, reason: String) {
        self.code = code
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `<reason> at line <line>, column <column>`.
    public var description: String { "\(reason) at line \(line), column \(column)" }

    static let internalErrorCode = 1
    static let emptyDocumentCode = 4
    static let nestingTooDeepCode = 512

    /// libxml2's explanation of the codes a malformed response most often gets.
    static func reason(for code: Int) -> String {
        let explanations = [
            4: "the document is empty", 5: "extra content at the end of the document",
            26: "undeclared entity", 73: "'>' required", 76: "end tag does not match start tag",
            89: "entity reference loop or expansion limit",
        ]
        guard let explanation = explanations[code] else { return "libxml2 error \(code)" }
        return "\(explanation) (libxml2 error \(code))"
    }
}
