extension URLEncodedFormEncoder {
    /// The ASCII characters an encoder writes as they are, Alamofire's `allowedCharacters`.
    ///
    /// Every other byte of a key's or value's UTF-8 is percent-escaped. Only ASCII can be a member:
    /// characters outside it are always escaped, and a space is always written as the
    /// ``SpaceEncoding`` says, as in Alamofire.
    ///
    /// ```swift
    /// var allowed = URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed
    /// allowed.remove(charactersIn: "?/")
    /// try URLEncodedFormEncoder(allowedCharacters: allowed).encode(["allowed": "?/"])  // "allowed=%3F%2F"
    /// ```
    public struct AllowedCharacters: Sendable, Hashable {
        var mask: ASCIIMask

        /// Letters, digits, `-._~` and `/?`: RFC 3986's query characters without the delimiters
        /// `:#[]@!$&'()*+,;=`, the set AFNetworking and Alamofire both use.
        public static let afURLQueryAllowed = AllowedCharacters(mask: .unescaped)

        init(mask: ASCIIMask) { self.mask = mask }

        /// A set of the ASCII characters in `characters` (others are ignored).
        ///
        /// ```swift
        /// let unreserved = URLEncodedFormEncoder.AllowedCharacters(charactersIn: "abc-._~")
        /// ```
        public init(charactersIn characters: String) {
            mask = ASCIIMask(low: 0, high: 0)
            insert(charactersIn: characters)
        }

        /// Whether `character` is written as it is.
        ///
        /// ```swift
        /// URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed.contains("?")  // true
        /// ```
        public func contains(_ character: Unicode.Scalar) -> Bool {
            character.isASCII && mask.contains(UInt8(character.value))
        }

        /// Adds the ASCII characters of `characters`, except space.
        ///
        /// ```swift
        /// var allowed = URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed
        /// allowed.insert(charactersIn: "[]")  // brackets unescaped: "a[b]=c"
        /// ```
        public mutating func insert(charactersIn characters: String) {
            for byte in characters.utf8 where byte != UInt8(ascii: " ") { mask.insert(byte) }
        }

        /// Removes the characters of `characters`.
        ///
        /// ```swift
        /// var allowed = URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed
        /// allowed.remove(charactersIn: "/")  // "a=%2Fb"
        /// ```
        public mutating func remove(charactersIn characters: String) {
            for byte in characters.utf8 { mask.remove(byte) }
        }
    }
}
