internal import CourierHTTP

/// The `Vary` rules of RFC 9111 §4.1: which request fields a response depends on, and whether a new
/// request presents the same ones.
enum VaryMatching {
    /// The field names in the response's `Vary`, in order; `["*"]` when it varies on everything.
    static func names(in response: HTTPResponse) -> [String] {
        var names: [String] = []
        for value in response.headers.values(for: "Vary") {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmingSpaces()
                if !trimmed.isEmpty, !names.contains(where: { HTTPHeaders.namesMatch($0, trimmed) }) {
                    names.append(trimmed)
                }
            }
        }
        return names
    }

    /// Whether the response varies on everything (`Vary: *`): then it never matches a request.
    static func variesOnEverything(_ response: HTTPResponse) -> Bool {
        names(in: response).contains("*")
    }

    /// The request's values of the fields the response varies on.
    static func fields(of request: HTTPRequest, for response: HTTPResponse) -> [HTTPCacheEntry.VaryingField] {
        names(in: response).map { HTTPCacheEntry.VaryingField(name: $0, value: normalizedValue(request.headers, $0)) }
    }

    /// Whether `request` presents the fields `entry` was stored with: each named field is absent in
    /// both, or has the same value once its lines are combined and their whitespace trimmed.
    static func matches(_ entry: HTTPCacheEntry, _ request: HTTPRequest) -> Bool {
        if variesOnEverything(entry.response) { return false }
        return entry.varyingRequestFields.allSatisfy { field in
            normalizedValue(request.headers, field.name) == field.value
        }
    }

    /// The field's lines combined with `", "` (RFC 9110 §5.3), each list member trimmed; `nil`
    /// when absent.
    private static func normalizedValue(_ headers: HTTPHeaders, _ name: String) -> String? {
        let lines = headers.values(for: name)
        guard !lines.isEmpty else { return nil }
        return lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpaces() }
            .joined(separator: ", ")
    }
}
