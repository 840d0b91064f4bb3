internal import FoundationEssentials

/// One value in the tree an `Encodable` value is encoded into before it is written out.
///
/// A reference type because nested containers keep writing into their node after the call that
/// created them has returned.
final class FormNode {
    enum Content {
        /// Nothing was encoded (an empty keyed value stays `.keyed` with no keys).
        case unset
        case null
        case scalar(String)
        case keyed
        case unkeyed
    }

    private(set) var content: Content = .unset
    /// Keyed children in the order their keys were first encoded (keys already rewritten by the key
    /// encoding).
    private(set) var entries: [(key: String, node: FormNode)] = []
    /// A key index, built only once a node has many keys: most have a handful, and a linear scan
    /// beats hashing there.
    private var index: [String: Int]?
    private static let indexThreshold = 12
    private(set) var elements: [FormNode] = []

    func setNull() { reset(to: .null) }

    func setScalar(_ text: String) { reset(to: .scalar(text)) }

    /// Makes this node keyed, keeping its keys if it already was (a type may ask for its keyed
    /// container more than once, or a superclass may share it).
    func makeKeyed() {
        if case .keyed = content { return }
        reset(to: .keyed)
    }

    func makeUnkeyed() {
        if case .unkeyed = content { return }
        reset(to: .unkeyed)
    }

    /// The child for `key`; encoding a key again replaces its value but keeps its first position.
    func child(_ key: String) -> FormNode {
        makeKeyed()
        if let index {
            if let position = index[key] { return entries[position].node }
        } else {
            for entry in entries where entry.key == key { return entry.node }
        }
        let node = FormNode()
        entries.append((key, node))
        if index != nil {
            index?[key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            index = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return node
    }

    func appendElement() -> FormNode {
        makeUnkeyed()
        let node = FormNode()
        elements.append(node)
        return node
    }

    var elementCount: Int { elements.count }

    private func reset(to content: Content) {
        self.content = content
        if !entries.isEmpty {
            entries = []
            index = nil
        }
        if !elements.isEmpty { elements = [] }
    }
}

/// The `Encoder` that builds a ``FormNode`` tree, or in the Alamofire dialect sets leaves into a
/// ``FormPathTree`` at their coding paths.
final class FormValueEncoder: Encoder, SingleValueEncodingContainer {
    let options: URLEncodedFormEncoder
    /// Where this encoder writes in the AFNetworking dialect; unused when ``pathTree`` is set.
    let node: FormNode
    /// The Alamofire dialect's tree: creating a container there changes nothing, because Alamofire's
    /// containers exist only through the leaves written below them.
    let pathTree: FormPathTree?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(options: URLEncodedFormEncoder, node: FormNode, pathTree: FormPathTree? = nil, codingPath: [any CodingKey]) {
        self.options = options
        self.node = node
        self.pathTree = pathTree
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if pathTree == nil { node.makeKeyed() }
        return KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if pathTree == nil { node.makeUnkeyed() }
        return FormUnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// An encoder for a child node, one key deeper.
    func nested(_ node: FormNode, key: any CodingKey) -> FormValueEncoder {
        FormValueEncoder(options: options, node: node, pathTree: pathTree, codingPath: codingPath + [key])
    }

    /// In the Alamofire dialect, an encoder one key deeper; `nil` in AFNetworking's.
    func nestedPath(_ key: any CodingKey) -> FormValueEncoder? {
        guard pathTree != nil else { return nil }
        return nested(node, key: key)
    }

    /// The key as stored: after the key encoding, except in the Alamofire dialect, which encodes the
    /// whole key path when it writes it.
    func encodedKey(_ key: any CodingKey) -> String {
        pathTree == nil ? options.keyEncoding.encode(key.stringValue) : key.stringValue
    }

    /// Sets this encoder's value to `text`.
    func setScalar(_ text: String) {
        if let pathTree { pathTree.set(.text(text), at: codingPath) } else { node.setScalar(text) }
    }

    /// Sets this encoder's value to `nil`.
    func setNull() {
        if let pathTree {
            if let leaf = options.nilEncoding.pathLeaf { pathTree.set(leaf, at: codingPath) }
        } else {
            node.setNull()
        }
    }

    /// Encodes `value` into this encoder's node, with the special cases for dates, data, URLs and
    /// decimals that `JSONEncoder` also makes.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        // Compare metadata first: a dynamic cast per value is the slow part of a generic walk.
        if Value.self == Date.self, let date = value as? Date {
            if let text = try options.dateEncoding.text(for: date, dialect: options.dialect) { return setScalar(text) }
        } else if Value.self == Data.self, let data = value as? Data {
            if let text = try options.dataEncoding.text(for: data) { return setScalar(text) }
        } else if Value.self == URL.self, options.dialect == .afNetworking, let url = value as? URL {
            // Alamofire has no such case: a URL goes through its own `Encodable` conformance.
            return setScalar(url.absoluteString)
        } else if Value.self == Decimal.self, let decimal = value as? Decimal {
            return setScalar(decimal.description)
        }
        try value.encode(to: self)
    }

    // MARK: Scalars

    func text(_ value: Bool) -> String {
        switch options.boolEncoding {
        case .numeric: return value ? "1" : "0"
        case .literal: return value ? "true" : "false"
        }
    }

    func text(_ value: String) -> String { value }

    func text(_ value: Double) -> String { options.dialect.text(of: value) }

    func text(_ value: Float) -> String { options.dialect.text(of: value) }

    func text(_ value: Int) -> String { String(value) }
    func text(_ value: Int8) -> String { String(value) }
    func text(_ value: Int16) -> String { String(value) }
    func text(_ value: Int32) -> String { String(value) }
    func text(_ value: Int64) -> String { String(value) }
    func text(_ value: UInt) -> String { String(value) }
    func text(_ value: UInt8) -> String { String(value) }
    func text(_ value: UInt16) -> String { String(value) }
    func text(_ value: UInt32) -> String { String(value) }
    func text(_ value: UInt64) -> String { String(value) }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws { setNull() }

    func encode(_ value: Bool) throws { setScalar(text(value)) }
    func encode(_ value: String) throws { setScalar(text(value)) }
    func encode(_ value: Double) throws { setScalar(text(value)) }
    func encode(_ value: Float) throws { setScalar(text(value)) }
    func encode(_ value: Int) throws { setScalar(text(value)) }
    func encode(_ value: Int8) throws { setScalar(text(value)) }
    func encode(_ value: Int16) throws { setScalar(text(value)) }
    func encode(_ value: Int32) throws { setScalar(text(value)) }
    func encode(_ value: Int64) throws { setScalar(text(value)) }
    func encode(_ value: UInt) throws { setScalar(text(value)) }
    func encode(_ value: UInt8) throws { setScalar(text(value)) }
    func encode(_ value: UInt16) throws { setScalar(text(value)) }
    func encode(_ value: UInt32) throws { setScalar(text(value)) }
    func encode(_ value: UInt64) throws { setScalar(text(value)) }

    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}

/// A keyed container writing into a ``FormNode``.
struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> FormNode {
        node.child(encoder.encodedKey(key))
    }

    /// The encoder for `key`'s value.
    private func nestedEncoder(_ key: Key) -> FormValueEncoder {
        encoder.nestedPath(key) ?? encoder.nested(child(key), key: key)
    }

    private func put(_ text: String, forKey key: Key) {
        if let path = encoder.nestedPath(key) { path.setScalar(text) } else { child(key).setScalar(text) }
    }

    mutating func encodeNil(forKey key: Key) throws {
        if let path = encoder.nestedPath(key) { path.setNull() } else { child(key).setNull() }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(encoder.text(value), forKey: key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try nestedEncoder(key).encodeValue(value)
    }

    /// Synthesized `Encodable` conformances skip `nil` optionals through `encodeIfPresent`; writing
    /// them as `nil` lets ``URLEncodedFormEncoder/NilEncoding`` decide.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(key).unkeyedContainer()
    }

    /// AFNetworking's dialect nests the superclass under `super`, as `JSONEncoder` does; Alamofire's
    /// writes it into the same keyed value.
    mutating func superEncoder() -> any Encoder {
        if encoder.pathTree != nil { return encoder }
        let key = FormIndexKey(stringValue: "super")
        return encoder.nested(node.child(encoder.encodedKey(key)), key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedEncoder(key)
    }
}

/// An unkeyed container writing into a ``FormNode``.
struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    /// The Alamofire dialect's index, which like Alamofire's belongs to the container and skips a
    /// `nil` that leaves no value.
    private var pathCount = 0

    init(encoder: FormValueEncoder, node: FormNode, codingPath: [any CodingKey]) {
        self.encoder = encoder
        self.node = node
        self.codingPath = codingPath
    }

    var count: Int { encoder.pathTree == nil ? node.elementCount : pathCount }

    private mutating func nextEncoder() -> FormValueEncoder {
        if let path = encoder.nestedPath(FormIndexKey(intValue: pathCount)) {
            pathCount += 1
            return path
        }
        let index = node.elementCount
        return encoder.nested(node.appendElement(), key: FormIndexKey(intValue: index))
    }

    private mutating func putNext(_ text: String) {
        if encoder.pathTree == nil { node.appendElement().setScalar(text) } else { nextEncoder().setScalar(text) }
    }

    mutating func encodeNil() throws {
        guard let tree = encoder.pathTree else { return node.appendElement().setNull() }
        // A nil that leaves no value takes no index, as in Alamofire.
        if let leaf = encoder.options.nilEncoding.pathLeaf {
            tree.set(leaf, at: codingPath + [FormIndexKey(intValue: pathCount)])
            pathCount += 1
        }
    }

    mutating func encode(_ value: Bool) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: String) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Double) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Float) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Int) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Int8) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Int16) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Int32) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: Int64) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: UInt) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: UInt8) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: UInt16) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: UInt32) throws { putNext(encoder.text(value)) }
    mutating func encode(_ value: UInt64) throws { putNext(encoder.text(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try nextEncoder().encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    /// Alamofire's super encoder writes at the array's own path, taking an index.
    mutating func superEncoder() -> any Encoder {
        if encoder.pathTree != nil {
            pathCount += 1
            return encoder
        }
        return nextEncoder()
    }
}

/// The coding key of an array element, or the `super` key.
struct FormIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
