extension URLEncodedFormEncoder {
    /// Whose output the encoder reproduces where AFNetworking's parameter encoding and Alamofire 5's
    /// `URLEncodedFormEncoder` differ. The other options apply in both dialects.
    ///
    /// ```swift
    /// var encoder = URLEncodedFormEncoder()
    /// encoder.dialect = .alamofire5
    /// try encoder.encode(["price": 1.0])  // "price=1.0" (AFNetworking's dialect writes "price=1")
    /// ```
    public enum Dialect: Sendable, Hashable {
        /// AFNetworking's output (the default): whole numbers without a fraction, keys sorted at each
        /// level by their unescaped text, the key encoding applied to each key, every array element
        /// keeping its index, a superclass under the key `super`, a `URL` as its absolute string.
        case afNetworking
        /// Alamofire 5's output, byte for byte; see ``URLEncodedFormEncoder/alamofire5``.
        case alamofire5
    }

    /// Alamofire 5's `URLEncodedFormEncoder()`, byte for byte: its defaults in Alamofire's dialect.
    ///
    /// For the many who come from Alamofire: the same value gives the same bytes, so a server that
    /// parsed Alamofire's forms and query strings sees no change. Checked against Alamofire 5.12's own
    /// tests. What Alamofire's dialect (``Dialect/alamofire5``) changes:
    ///
    /// - Numbers: a `Double` or `Float` prints as Swift describes it, so `1.0` stays `1.0`, `-0.0`
    ///   keeps its sign and `1e16` is `1e+16` (escaped `1e%2B16`). Dates as seconds or milliseconds
    ///   since 1970, and `Date`'s own encoding, print the same way (`0.0`).
    /// - Ordering: with ``alphabetizeKeyValuePairs``, the escaped `key=value` texts are sorted at every
    ///   level, array elements included (`k[]=a&k[]=b` whatever the array's order; `k[10]` before
    ///   `k[2]`); a nested value sorts as its joined text, so a pair never moves out of its parent's
    ///   run.
    /// - Keys: the key encoding applies to the whole unescaped key path (`myObj[someKey]` becomes
    ///   `my_obj[some_key]` in snake case, and ``KeyEncoding/capitalized`` capitalizes only its first
    ///   letter).
    /// - Indices: an element that writes nothing (a dropped `nil`, an empty value) leaves no gap, so
    ///   `[1, nil, 3]` is `k[0]=1&k[1]=3`. As in Alamofire, a keyed element after such a gap puts each
    ///   of its keys in an element of its own.
    /// - Coding keys with an integer value are array indices, as Alamofire treats them: a `URL`
    ///   encodes through its own `Encodable` conformance as `url[]=https://…`, an `[Int: V]`
    ///   dictionary as an array, and so does a `[String: V]` key that reads as an integer (`"9"`),
    ///   which makes a top-level dictionary with such a key throw.
    /// - `superEncoder()` writes into the same keyed value (a superclass's keys sit beside the
    ///   subclass's) rather than under `super`.
    /// - An empty top level, or a top-level `nil` or empty array, encodes as the empty string rather
    ///   than throwing.
    ///
    /// Two deliberate differences remain: ``allowedCharacters`` holds ASCII only (Alamofire's
    /// `CharacterSet` may leave other characters unescaped), and a key encoding that splits words uses
    /// Swift's `Character.isUppercase` where Alamofire uses `CharacterSet.uppercaseLetters`.
    ///
    /// ## From Alamofire's names to Courier's
    ///
    /// | Alamofire 5 | Courier |
    /// | --- | --- |
    /// | `URLEncodedFormEncoder()` | `URLEncodedFormEncoder.alamofire5` |
    /// | `alphabetizeKeyValuePairs` | ``alphabetizeKeyValuePairs`` |
    /// | `ArrayEncoding` `.brackets`, `.noBrackets`, `.indexInBrackets`, `.custom` | ``ArrayEncoding``, same cases |
    /// | `BoolEncoding` `.numeric`, `.literal` | ``BoolEncoding``, same cases |
    /// | `DataEncoding` `.deferredToData`, `.base64`, `.custom` | ``DataEncoding``, same cases |
    /// | `DateEncoding` `.deferredToDate`, `.secondsSince1970`, `.millisecondsSince1970`, `.iso8601`, `.custom` | ``DateEncoding``, same cases |
    /// | `DateEncoding.formatted(DateFormatter)` | `.custom { formatter.string(from: $0) }` |
    /// | `KeyEncoding` (all seven) | ``KeyEncoding``, same cases |
    /// | `KeyPathEncoding` `.brackets`, `.dots`, `init(encoding:)` | ``KeyPathEncoding``, same |
    /// | `NilEncoding.dropKey` | ``NilEncoding/dropKey`` |
    /// | `NilEncoding.dropValue` (`key=`) | ``NilEncoding/emptyValue`` |
    /// | `NilEncoding.null` | ``NilEncoding/null`` |
    /// | `NilEncoding(encoding:)` | ``NilEncoding/custom(_:)`` |
    /// | (AFNetworking's bare `key`) | ``NilEncoding/dropValue`` |
    /// | `SpaceEncoding` `.percentEscaped`, `.plusReplaced` | ``SpaceEncoding``, same cases |
    /// | `allowedCharacters: CharacterSet`, `CharacterSet.afURLQueryAllowed` | ``allowedCharacters``, ``AllowedCharacters/afURLQueryAllowed`` |
    /// | `encode(_:) -> String` | ``encode(_:)`` |
    /// | `encode(_:) -> Data` | ``encodeBytes(_:)`` |
    /// | `URLEncodedFormEncoder.Error.invalidRootObject` | `SerializationError`, code ``SerializationError/Code/formEncodingFailed`` |
    /// | `validate(contentType:)` | `ResponseValidator` with ``ResponseValidator/ContentTypeMatching/mediaRanges`` |
    ///
    /// Any option can be changed on the preset:
    ///
    /// ```swift
    /// struct Search: Encodable { let query: String; let ratio: Double; let tags: [String?] }
    /// var encoder = URLEncodedFormEncoder.alamofire5
    /// encoder.arrayEncoding = .indexInBrackets
    /// try encoder.encode(Search(query: "a b", ratio: 1, tags: ["x", nil, "y"]))
    /// // "query=a%20b&ratio=1.0&tags%5B0%5D=x&tags%5B1%5D=y"
    /// ```
    public static var alamofire5: URLEncodedFormEncoder {
        URLEncodedFormEncoder(dialect: .alamofire5)
    }
}
