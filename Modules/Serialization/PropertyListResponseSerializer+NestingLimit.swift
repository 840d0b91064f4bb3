internal import FoundationEssentials

/// A guard in front of `PropertyListDecoder` against input that would overflow its stack.
///
/// FoundationEssentials' property-list parsers recurse once per nesting level with no limit: an XML
/// property list 10,000 `<array>`s deep, a binary one 10,000 arrays deep, or a binary one whose
/// object references form a cycle (which is never valid) crash the process. A response body is
/// untrusted, so before decoding, XML and other text input is scanned for `<array>`/`<dict>` nesting
/// and a binary property list's object graph is walked without recursion; more than 512 levels, a
/// cycle or a reference past the object table is refused with a typed error. OpenStep-style text
/// needs no guard: that parser has its own limit.
enum PropertyListNestingLimit {
    /// The deepest nesting accepted, the same as the JSON scanner's.
    static let maximumDepth = 512

    /// Why `data` cannot be decoded safely, or `nil` when it can.
    static func violation(in data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) { return BinaryGraph(bytes)?.violation() }
        return xmlViolation(bytes)
    }

    private static let tooDeep = "Too many nested arrays or dictionaries: more than \(maximumDepth) levels."

    /// Tracks the nesting of `<array>` and `<dict>` elements, skipping comments, CDATA, processing
    /// instructions and declarations; `<array/>` and `<dict/>` do not nest.
    private static func xmlViolation(_ bytes: [UInt8]) -> String? {
        var depth = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = bytes[(open + 1)...]
            if rest.starts(with: Array("!--".utf8)) {
                index = end(of: "-->", in: bytes, from: open + 4)
            } else if rest.starts(with: Array("![CDATA[".utf8)) {
                index = end(of: "]]>", in: bytes, from: open + 9)
            } else if rest.starts(with: Array("?".utf8)) {
                index = end(of: "?>", in: bytes, from: open + 2)
            } else {
                let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.endIndex
                let tag = bytes[(open + 1)..<close]
                let isClosing = tag.first == UInt8(ascii: "/")
                let name = tag.drop { $0 == UInt8(ascii: "/") }.prefix { isNameByte($0) }
                if name.elementsEqual("array".utf8) || name.elementsEqual("dict".utf8) {
                    if isClosing {
                        depth = max(depth - 1, 0)
                    } else if tag.last != UInt8(ascii: "/") {
                        depth += 1
                        if depth > maximumDepth { return tooDeep }
                    }
                }
                index = min(close + 1, bytes.endIndex)
            }
            if index >= bytes.endIndex { break }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func end(of terminator: String, in bytes: [UInt8], from start: Int) -> Int {
        let pattern = Array(terminator.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<index + pattern.count].elementsEqual(pattern) { return index + pattern.count }
            index += 1
        }
        return bytes.endIndex
    }

    /// The object table of a binary property list (`bplist00`), enough to follow references.
    private struct BinaryGraph {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let topObject: Int
        let offsetTable: Int

        /// Reads the 32-byte trailer; `nil` when it is malformed, which the decoder then reports.
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 8 + 32 else { return nil }
            let trailer = bytes.count - 32
            self.bytes = bytes
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
                let objectCount = Self.integer(bytes, at: trailer + 8, size: 8),
                let topObject = Self.integer(bytes, at: trailer + 16, size: 8),
                let offsetTable = Self.integer(bytes, at: trailer + 24, size: 8),
                objectCount > 0, objectCount <= trailer, topObject < objectCount,
                offsetTable <= trailer, objectCount <= (trailer - offsetTable) / offsetSize
            else { return nil }
            self.objectCount = objectCount
            self.topObject = topObject
            self.offsetTable = offsetTable
        }

        /// A cycle, an out-of-range reference or containers nested past the limit, found by an
        /// iterative post-order walk that records each container's height once.
        func violation() -> String? {
            // Per object: -1 unvisited, -2 on the current path, else its height in containers.
            var height = [Int](repeating: -1, count: objectCount)
            var path: [(object: Int, children: [Int], next: Int)] = []
            guard let root = node(topObject) else { return "Invalid object reference." }
            guard root.isContainer else { return nil }
            height[topObject] = -2
            path.append((topObject, root.children, 0))
            while let last = path.last {
                guard last.next < last.children.count else {
                    path.removeLast()
                    height[last.object] = 1 + last.children.map { height[$0] }.reduce(0, max)
                    continue
                }
                let child = last.children[last.next]
                path[path.count - 1].next += 1
                switch height[child] {
                case -2:
                    return "The object references form a cycle."
                case -1:
                    guard let childNode = node(child) else { return "Invalid object reference." }
                    if childNode.isContainer {
                        height[child] = -2
                        path.append((child, childNode.children, 0))
                        if path.count > maximumDepth { return tooDeep }
                    } else {
                        height[child] = 0
                    }
                default:
                    if path.count + height[child] > maximumDepth { return tooDeep }
                }
            }
            return nil
        }

        /// Whether an object is an array, set or dictionary, and the objects it refers to; `nil`
        /// when a reference or offset is out of range.
        private func node(_ object: Int) -> (isContainer: Bool, children: [Int])? {
            guard let offset = Self.integer(bytes, at: offsetTable + object * offsetSize, size: offsetSize),
                offset < offsetTable
            else { return nil }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return (false, []) }
            var count = Int(marker & 0x0F)
            var start = offset + 1
            if count == 0x0F {
                guard start < offsetTable, bytes[start] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard size <= 8, let length = Self.integer(bytes, at: start + 1, size: size) else { return nil }
                count = length
                start += 1 + size
            }
            let references = kind == 0xD ? count * 2 : count
            guard start <= offsetTable, references <= (offsetTable - start) / referenceSize else { return nil }
            var children: [Int] = []
            children.reserveCapacity(references)
            for index in 0..<references {
                guard let reference = Self.integer(bytes, at: start + index * referenceSize, size: referenceSize),
                    reference < objectCount
                else { return nil }
                children.append(reference)
            }
            return (true, children)
        }

        /// A big-endian unsigned integer of `size` bytes, or `nil` when out of range or above `Int.max`.
        private static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
            guard start >= 0, size <= 8, start + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for byte in bytes[start..<start + size] { value = value << 8 | UInt64(byte) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
    }
}
