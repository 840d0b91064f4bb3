import CourierSerializationXML
import FoundationEssentials

// Parses a document so that the linker keeps the module and FoundationXML.
let tree = try XMLTree(data: Data(#"<probe name="xml"/>"#.utf8))
print(tree.root.attributes["name"] ?? "")
