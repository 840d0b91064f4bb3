public import FoundationEssentials

extension JSONValue {
    /// The `debugDescription` of every parse error, `JSONDecoder`'s own words.
    static let invalidJSONDescription = "The given data was not valid JSON."

    /// Parses JSON text into a value, with Courier's own parser (the one ``JSONResponseSerializer``
    /// uses), many times faster than `JSONDecoder().decode(JSONValue.self, from:)` and with the same
    /// result.
    ///
    /// Any top-level value is accepted, a scalar such as `42` included (the serializer's
    /// ``JSONResponseSerializer/allowsFragments`` check comes after). What is accepted is RFC 8259
    /// plus `JSONDecoder`'s two leniencies: a comma after the last element or member (`[1,2,]`) and
    /// a UTF-8 byte-order mark. UTF-16 and UTF-32 text, which `JSONDecoder` recognises by a
    /// byte-order mark or NUL bytes at the start, is handed to `JSONDecoder`. Numbers follow
    /// ``JSONValue``'s rules (`9007199254740993` stays an exact ``int(_:)``), and of duplicate keys
    /// the first wins. Two differences from `JSONDecoder().decode(JSONValue.self, from:)` are
    /// deliberate:
    ///
    /// - Every negative number that is or rounds to zero (`-0e1`, `-1e-400`) is `.double(-0.0)`,
    ///   where `JSONDecoder` keeps the sign of some such texts and not of others.
    /// - The value of a repeated key, which neither keeps, must still be valid JSON: `JSONDecoder`
    ///   never decodes it, so it lets through a raw control character, a bad escape, invalid UTF-8,
    ///   a malformed number (`2.`) or `1e400` there, all of which this parser refuses.
    ///
    /// The parser is an explicit exception to the rule that Courier uses the Codable coders:
    /// `JSONDecoder` cannot decode "any value" without trying each kind in turn, which costs a thrown
    /// error per attempt.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, as `JSONDecoder` throws for malformed input, with
    ///   `The given data was not valid JSON.` as its description and, as its underlying error, what
    ///   was wrong and at which byte offset; nesting deeper than 512 arrays or objects is refused the
    ///   same way, with the offset of the bracket that crosses the limit as the description.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: Data(#"{"id": 9007199254740993, "tags": ["a", "b"]}"#.utf8))
    /// value["id"]?.intValue            // 9007199254740993
    /// value["tags"]?[1]?.stringValue   // "b"
    /// ```
    public init(parsing data: Data) throws {
        if JSONParser.isWideEncoding(data) {
            // JSONDecoder traps on some input nested too deeply; its own path keeps the guard.
            if let offset = JSONNestingLimit.violationOffset(in: data) {
                throw Self.decodingError(JSONParsingError(kind: .tooDeep, offset: offset))
            }
            self = try JSONDecoder().decode(JSONValue.self, from: data)
            return
        }
        do {
            self = try JSONParser.parse(data)
        } catch {
            throw Self.decodingError(error)
        }
    }

    private static func decodingError(_ error: JSONParsingError) -> DecodingError {
        let description = error.kind == .tooDeep ? error.description : invalidJSONDescription
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: description, underlyingError: error)
        )
    }

    /// The nesting failure inside `error`, if that is what it is.
    static func nestingFailure(in error: any Error) -> JSONParsingError? {
        guard case DecodingError.dataCorrupted(let context) = error,
            let failure = context.underlyingError as? JSONParsingError, failure.kind == .tooDeep
        else { return nil }
        return failure
    }
}
