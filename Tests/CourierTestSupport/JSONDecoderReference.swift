import FoundationEssentials

// The nesting guard is internal; debug builds, the only ones that compile this target, allow it.
@testable public import CourierSerialization

/// The reference Courier's JSON parser is checked against: `JSONDecoder` decoding `JSONValue`
/// through its `Decodable` conformance, the path `JSONResponseSerializer` took before it had a
/// parser of its own, behind the same nesting guard (`JSONDecoder` traps on some input nested more
/// than 512 deep). Shared by the conformance tests and the `json-parser` fuzz target.
public enum JSONDecoderReference {
    /// The value `JSONDecoder` reads from `bytes`, or `nil` where it (or the guard) refuses them.
    public static func value(of bytes: [UInt8]) -> JSONValue? {
        let data = Data(bytes)
        if JSONNestingLimit.violationOffset(in: data) != nil { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value with every negative zero made `.int(0)`: the one place where the parser departs
    /// from `JSONDecoder` on purpose. A negative number that is or rounds to zero stays `-0.0` in
    /// the parser; `JSONDecoder` keeps that sign for `-0` and `-0e5` but drops it for `-0e1` and
    /// `-1e-400`.
    public static func zeroSignIgnored(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let double) where double == 0: return .int(0)
        case .array(let elements): return .array(elements.map(zeroSignIgnored))
        case .object(let members): return .object(members.mapValues(zeroSignIgnored))
        default: return value
        }
    }
}
