internal import FoundationEssentials

extension URLEncodedFormEncoder.DateEncoding {
    /// The text for `date`, or `nil` to let `Date` encode itself.
    func text(for date: Date, dialect: URLEncodedFormEncoder.Dialect) throws -> String? {
        switch self {
        case .deferredToDate: return nil
        case .secondsSince1970: return dialect.text(of: date.timeIntervalSince1970)
        case .millisecondsSince1970: return dialect.text(of: date.timeIntervalSince1970 * 1000)
        case .iso8601: return date.formatted(Self.iso8601Style)
        case .custom(let closure): return try closure(date)
        }
    }

    /// RFC 3339 internet date-time in UTC (`2023-11-14T22:13:20Z`), what Alamofire's
    /// `ISO8601DateFormatter` with `.withInternetDateTime` writes.
    private static let iso8601Style = Date.ISO8601FormatStyle()
}

extension URLEncodedFormEncoder.Dialect {
    /// A `Double` as the dialect prints it: AFNetworking's whole numbers without a fraction, or
    /// Swift's description as Alamofire's `String(value)` (`1.0`, `-0.0`, `1e+16`).
    func text(of value: Double) -> String {
        self == .alamofire5 ? String(value) : ParameterValue.text(of: value)
    }

    /// A `Float` likewise.
    func text(of value: Float) -> String {
        if self == .afNetworking, value.isFinite, value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return String(value)
    }
}

extension URLEncodedFormEncoder.NilEncoding {
    /// The leaf a `nil` leaves in the Alamofire dialect's tree; `nil` when it leaves none.
    var pathLeaf: FormPathLeaf? {
        switch self {
        case .dropKey: return nil
        case .dropValue: return .bareKey
        case .emptyValue: return .text("")
        case .null: return .text("null")
        case .custom(let closure): return closure().map { .text($0) }
        }
    }
}

extension URLEncodedFormEncoder.DataEncoding {
    /// The text for `data`, or `nil` to let `Data` encode itself.
    func text(for data: Data) throws -> String? {
        switch self {
        case .deferredToData: return nil
        case .base64: return data.base64EncodedString()
        case .custom(let closure): return try closure(data)
        }
    }
}

extension URLEncodedFormEncoder.KeyEncoding {
    /// `key` rewritten by this encoding.
    func encode(_ key: String) -> String {
        switch self {
        case .useDefaultKeys: return key
        case .convertToSnakeCase: return Self.splitWords(key).joined(separator: "_")
        case .convertToKebabCase: return Self.splitWords(key).joined(separator: "-")
        case .capitalized: return key.prefix(1).uppercased() + key.dropFirst()
        case .uppercased: return key.uppercased()
        case .lowercased: return key.lowercased()
        case .custom(let closure): return closure(key)
        }
    }

    /// Alamofire's (and `JSONEncoder`'s) camel-case split, lower-cased: a word ends before an upper-case
    /// letter, and a run of upper-case letters is one word that ends before the capital that starts
    /// the next lower-case word (`myURLProperty` is `my`, `url`, `property`). The first character
    /// never starts a new word.
    static func splitWords(_ key: String) -> [String] {
        let characters = Array(key)
        guard !characters.isEmpty else { return [key] }
        let end = characters.count
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<end).first(where: { characters[$0].isUppercase }) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<end).first(where: { characters[$0].isLowercase }) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
            if searchStart >= end { break }
        }
        words.append(wordStart..<end)
        return words.map { String(characters[$0]).lowercased() }
    }
}
