/// What a leaf of a ``FormPathTree`` writes after its key.
enum FormPathLeaf {
    /// `=` and the escaped text.
    case text(String)
    /// Nothing: the bare key (``URLEncodedFormEncoder/NilEncoding/dropValue``).
    case bareKey
}

/// One value of a ``FormPathTree``; a reference type so that a path walk can update it in place.
final class FormPathNode {
    enum Kind {
        case leaf(FormPathLeaf)
        case array
        case object
    }

    private(set) var kind: Kind
    /// Array elements, in the order they were first written.
    var elements: [FormPathNode] = []
    /// Object members, in the order their keys were first written (keys unescaped, not yet rewritten
    /// by the key encoding).
    var entries: [(key: String, node: FormPathNode)] = []

    init(_ kind: Kind) { self.kind = kind }

    /// Turns the node into `kind`, dropping what it held unless it already was that kind.
    func become(_ kind: Kind) {
        switch (self.kind, kind) {
        case (.array, .array), (.object, .object): return
        default:
            self.kind = kind
            elements = []
            entries = []
        }
    }
}

/// Alamofire 5's form tree: each leaf is set at its coding path, and containers exist only once a
/// leaf below them does.
///
/// Setting by path, not by container, is what gives Alamofire's output its shape: an element that
/// writes no leaf takes no place in its array (a dropped `nil` leaves no gap in the indices), an
/// element's index past the array's end appends (so after such a gap each key of a keyed element
/// lands in a new element), a key with an integer value is an array index, and a value written
/// twice at one path replaces the first in place.
final class FormPathTree {
    /// The top level; an object until something sets the top-level value itself.
    let root = FormPathNode(.object)

    func set(_ leaf: FormPathLeaf, at path: [any CodingKey]) {
        guard let last = path.last else {
            root.become(.leaf(leaf))
            return
        }
        var node = root
        for key in path.dropLast() {
            node = child(of: node, at: key) ?? append(to: node, at: key, FormPathNode(.object))
        }
        let leafNode = FormPathNode(.leaf(leaf))
        if let index = last.intValue {
            node.become(.array)
            if node.elements.indices.contains(index) {
                node.elements[index] = leafNode
            } else {
                node.elements.append(leafNode)
            }
        } else {
            node.become(.object)
            if let position = node.entries.firstIndex(where: { $0.key == last.stringValue }) {
                node.entries[position].node = leafNode
            } else {
                node.entries.append((last.stringValue, leafNode))
            }
        }
    }

    /// The existing child of `node` at `key`, after making `node` an array (integer key) or object.
    private func child(of node: FormPathNode, at key: any CodingKey) -> FormPathNode? {
        if let index = key.intValue {
            node.become(.array)
            return node.elements.indices.contains(index) ? node.elements[index] : nil
        }
        node.become(.object)
        return node.entries.first { $0.key == key.stringValue }?.node
    }

    private func append(to node: FormPathNode, at key: any CodingKey, _ child: FormPathNode) -> FormPathNode {
        if key.intValue != nil {
            node.elements.append(child)
        } else {
            node.entries.append((key.stringValue, child))
        }
        return child
    }
}
