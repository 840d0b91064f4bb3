public import FoundationEssentials

/// Encodes an `Encodable` value as a URL-encoded form (`application/x-www-form-urlencoded`) or query
/// string, with Alamofire's options and AFNetworking's output.
///
/// Nested keyed values become `parent[child]=value`, arrays `key[]=value` (see ``ArrayEncoding``), and
/// everything is escaped as ``PercentEscaping`` escapes it (RFC 3986 §3.4, `%20` for space). The
/// top-level value must be keyed (a struct, a class or a `[String: …]` dictionary); anything else throws
/// ``SerializationError/Code/formEncodingFailed``. Keys are sorted at *every* level, in
/// AFNetworking's order (UTF-16 code units), when ``alphabetizeKeyValuePairs`` is set.
///
/// ## Matching AFNetworking byte for byte
///
/// With ``afNetworkingCompatible`` (the defaults, except that `nil` is a bare key), encoding a value
/// gives exactly the bytes that ``QueryStringEncoder`` gives for the equivalent ``Parameters``:
/// strings, integers, doubles, booleans (`1`/`0`), `nil`, nested keyed values (`a[b]`) and arrays
/// (`a[]`). Outside that shared subset:
/// - `Set`s arrive through `Encodable` as arrays (`key[]=…`, in the set's iteration order), whereas
///   ``ParameterValue/set(_:)`` repeats `key` in sorted order.
/// - `Data` is base64 text by default; ``ParameterValue/data(_:)`` is escaped byte by byte.
///
/// ## Where Alamofire differs
/// The points below are where the default ``Dialect/afNetworking`` output differs from Alamofire 5's
/// `URLEncodedFormEncoder()`; ``alamofire5`` (``Dialect/alamofire5``) reproduces Alamofire's output
/// byte for byte instead, and its documentation maps Alamofire's options to Courier's.
/// - `nil`: Alamofire's default, ``NilEncoding/dropKey``, leaves the key out; AFNetworking writes the
///   bare field, which is ``NilEncoding/dropValue`` here. Alamofire's own `.dropValue` writes `key=`,
///   which is ``NilEncoding/emptyValue`` here.
/// - Numbers: a whole `Double` or `Float` prints without a fraction (`1`, as AFNetworking prints on
///   Apple platforms); Alamofire prints `1.0`. Dates encoded as seconds or milliseconds follow the same
///   rule.
/// - Ordering: Alamofire sorts only the top-level pairs (as strings, after escaping) and keeps nested
///   keys in encoding order; Courier sorts each level by its unescaped keys, as AFNetworking does.
/// - Empty arrays and keyed values leave their key out entirely, as in AFNetworking.
///
/// ```swift
/// struct Search: Encodable {
///     struct User: Encodable { let name: String; let tags: [String] }
///     let q: String
///     let page: Int
///     let user: User
///     let cursor: String?
/// }
/// let encoder = URLEncodedFormEncoder.afNetworkingCompatible
/// let query = try encoder.encode(Search(q: "a b", page: 2, user: .init(name: "Jane", tags: ["x"]), cursor: nil))
/// // "cursor&page=2&q=a%20b&user%5Bname%5D=Jane&user%5Btags%5D%5B%5D=x"
/// ```
public struct URLEncodedFormEncoder: Sendable {
    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=value` for each element (the default; AFNetworking's only style).
        case brackets
        /// `key=value` for each element.
        case noBrackets
        /// `key[0]=value`, `key[1]=value`… (jQuery's and Node's style).
        case indexInBrackets
        /// The closure's key for each element, given the unescaped key path so far and the element's
        /// index; the result replaces the whole path and is escaped when written.
        ///
        /// ```swift
        /// let encoder = URLEncodedFormEncoder(arrayEncoding: .custom { key, index in "\(key).\(index + 1)" })
        /// try encoder.encode(["array": [1, 2]])  // "array.1=1&array.2=2"
        /// ```
        case custom(@Sendable (_ key: String, _ index: Int) -> String)
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0` (the default; AFNetworking's `NSNumber` booleans).
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable {
        /// `Data`'s own `Encodable` form: an array of byte values (`key[]=1&key[]=2`).
        case deferredToData
        /// Base64 text (the default).
        case base64
        /// The closure's text; an error it throws fails the encoding.
        case custom(@Sendable (Data) throws -> String)
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// `Date`'s own `Encodable` form: seconds since 2001-01-01 (the default).
        case deferredToDate
        /// Seconds since 1970-01-01 UTC.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 UTC.
        case millisecondsSince1970
        /// RFC 3339 / ISO 8601 internet date-time in UTC, such as `2023-11-14T22:13:20Z`.
        case iso8601
        /// The closure's text; an error it throws fails the encoding.
        case custom(@Sendable (Date) throws -> String)
    }

    /// How keys are rewritten before they are written.
    public enum KeyEncoding: Sendable {
        /// Keys as the type gives them (the default).
        case useDefaultKeys
        /// `myURLProperty` becomes `my_url_property`.
        case convertToSnakeCase
        /// `myURLProperty` becomes `my-url-property`.
        case convertToKebabCase
        /// The first character upper-cased: `oneTwo` becomes `OneTwo`.
        case capitalized
        /// Every character upper-cased.
        case uppercased
        /// Every character lower-cased.
        case lowercased
        /// The closure's key.
        case custom(@Sendable (String) -> String)
    }

    /// How `nil` values are written.
    public enum NilEncoding: Sendable {
        /// The key is left out (the default, as in Alamofire).
        case dropKey
        /// The bare key, with no `=`: AFNetworking's rendering of `NSNull`.
        case dropValue
        /// `key=`: what Alamofire's `.dropValue` writes.
        case emptyValue
        /// `key=null`.
        case null
        /// `key=` and the closure's text, escaped; the key is left out when the closure returns `nil`
        /// (Alamofire's `NilEncoding(encoding:)`).
        ///
        /// ```swift
        /// let encoder = URLEncodedFormEncoder(nilEncoding: .custom { "none" })
        /// try encoder.encode(["a": String?.none])  // "a=none"
        /// ```
        case custom(@Sendable () -> String?)
    }

    /// How the key of a nested keyed value is appended to its parent's key path.
    ///
    /// ```swift
    /// try URLEncodedFormEncoder(keyPathEncoding: .dots).encode(["a": ["b": "c"]])  // "a.b=c"
    /// ```
    public struct KeyPathEncoding: Sendable {
        /// `parent[child]` (the default; AFNetworking's only style).
        public static let brackets = KeyPathEncoding(kind: .brackets)
        /// `parent.child`.
        public static let dots = KeyPathEncoding(kind: .custom { ".\($0)" })

        enum Kind {
            case brackets
            case custom(@Sendable (String) -> String)
        }

        let kind: Kind

        private init(kind: Kind) { self.kind = kind }

        /// An encoding whose closure returns the text appended to the parent's path for each nested key;
        /// the text is escaped when written.
        ///
        /// ```swift
        /// let dashed = URLEncodedFormEncoder.KeyPathEncoding { "-\($0)" }  // "a-b=c"
        /// ```
        public init(encoding: @escaping @Sendable (_ subkey: String) -> String) {
            kind = .custom(encoding)
        }

        /// The unescaped text appended for `subkey`.
        func suffix(for subkey: String) -> String {
            switch kind {
            case .brackets: return "[\(subkey)]"
            case .custom(let closure): return closure(subkey)
            }
        }
    }

    /// How spaces are written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// `%20` (the default; AFNetworking's only style).
        case percentEscaped
        /// `+`, as HTML forms send them.
        case plusReplaced
    }

    /// Whether keys are sorted (at every level, by UTF-16 code units); otherwise they keep the order
    /// in which the value encoded them.
    public var alphabetizeKeyValuePairs: Bool
    /// How array elements are keyed.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public var boolEncoding: BoolEncoding
    /// How `Data` values are written.
    public var dataEncoding: DataEncoding
    /// How `Date` values are written.
    public var dateEncoding: DateEncoding
    /// How keys are rewritten.
    public var keyEncoding: KeyEncoding
    /// How nested keys are appended to their parent's key path.
    public var keyPathEncoding: KeyPathEncoding
    /// How `nil` values are written.
    public var nilEncoding: NilEncoding
    /// How spaces are written.
    public var spaceEncoding: SpaceEncoding
    /// The ASCII characters written as they are; everything else is percent-escaped.
    public var allowedCharacters: AllowedCharacters
    /// Whose output the encoder reproduces where AFNetworking and Alamofire differ.
    public var dialect: Dialect

    /// Creates an encoder; the option defaults are Alamofire's, the dialect AFNetworking's.
    ///
    /// ```swift
    /// let encoder = URLEncodedFormEncoder(boolEncoding: .literal, keyEncoding: .convertToSnakeCase)
    /// ```
    public init(
        alphabetizeKeyValuePairs: Bool = true,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        dataEncoding: DataEncoding = .base64,
        dateEncoding: DateEncoding = .deferredToDate,
        keyEncoding: KeyEncoding = .useDefaultKeys,
        keyPathEncoding: KeyPathEncoding = .brackets,
        nilEncoding: NilEncoding = .dropKey,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        allowedCharacters: AllowedCharacters = .afURLQueryAllowed,
        dialect: Dialect = .afNetworking
    ) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        self.nilEncoding = nilEncoding
        self.spaceEncoding = spaceEncoding
        self.allowedCharacters = allowedCharacters
        self.dialect = dialect
    }

    /// The defaults with `nil` as a bare key: byte-identical to ``QueryStringEncoder`` on the shared
    /// subset (see the type's documentation).
    ///
    /// ```swift
    /// let body = try URLEncodedFormEncoder.afNetworkingCompatible.encode(form)
    /// ```
    public static var afNetworkingCompatible: URLEncodedFormEncoder {
        URLEncodedFormEncoder(nilEncoding: .dropValue)
    }

    /// Returns the form encoding of `value`, without a leading `?`.
    ///
    /// ```swift
    /// struct Page: Encodable { let page: Int; let debug: Bool }
    /// try URLEncodedFormEncoder().encode(Page(page: 3, debug: true))  // "debug=1&page=3"
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/formEncodingFailed`` when
    ///   the top-level value is not keyed, when the value's `encode(to:)` throws, or when a custom
    ///   closure throws (its error is ``SerializationError/underlying``).
    public func encode(_ value: some Encodable) throws(SerializationError) -> String {
        if dialect == .alamofire5 { return try writeByPath(value) }
        return try write(value).output.string
    }

    /// Returns the form encoding of `value` as UTF-8 bytes, ready to be a body.
    ///
    /// ```swift
    /// let body = Data(try URLEncodedFormEncoder().encodeBytes(login))
    /// ```
    /// - Throws: As ``encode(_:)``.
    public func encodeBytes(_ value: some Encodable) throws(SerializationError) -> [UInt8] {
        if dialect == .alamofire5 { return Array(try writeByPath(value).utf8) }
        return try write(value).output.bytes
    }

    private func write(_ value: some Encodable) throws(SerializationError) -> FormWriter {
        let root = FormNode()
        try run(FormValueEncoder(options: self, node: root, codingPath: []), on: value)
        var writer = FormWriter(options: self)
        try writer.writeRoot(root, typeName: "\(type(of: value))")
        return writer
    }

    /// The Alamofire dialect: leaves are set by coding path into Alamofire's tree, then serialized.
    private func writeByPath(_ value: some Encodable) throws(SerializationError) -> String {
        let tree = FormPathTree()
        try run(FormValueEncoder(options: self, node: FormNode(), pathTree: tree, codingPath: []), on: value)
        return try FormPathWriter(options: self).write(tree.root, typeName: "\(type(of: value))")
    }

    private func run(_ encoder: FormValueEncoder, on value: some Encodable) throws(SerializationError) {
        do {
            try encoder.encodeValue(value)
        } catch let error as SerializationError {
            throw error
        } catch {
            throw .formEncodingFailed(
                "The value could not be encoded: \(error)",
                underlying: error
            )
        }
    }
}

extension SerializationError {
    /// A form-encoding failure.
    static func formEncodingFailed(_ reason: String, underlying: (any Error)? = nil) -> SerializationError {
        SerializationError(
            code: .formEncodingFailed,
            domain: .request,
            urlErrorCode: 0,
            localizedDescription: "The value could not be form-encoded.",
            failureReason: reason,
            underlying: underlying
        )
    }
}
