internal import CourierHTTP

/// The stubs of a double, newest first: each answers the requests it matches, a given number of
/// times or for ever. `MockTransport` and `MockSession` keep theirs in one.
struct StubList<Responder: Sendable>: Sendable {
    private struct Stub: Sendable {
        let matches: @Sendable (HTTPRequest) -> Bool
        let respond: Responder
        var remainingUses: Int?
    }

    private var stubs: [Stub] = []

    /// Adds a stub that wins over the ones before it.
    mutating func append(matching matches: @escaping @Sendable (HTTPRequest) -> Bool, times: Int?, respond: Responder) {
        stubs.append(Stub(matches: matches, respond: respond, remainingUses: times))
    }

    /// The responder of the newest stub that matches, using up one of its answers.
    mutating func take(for request: HTTPRequest) -> Responder? {
        guard let index = stubs.lastIndex(where: { $0.matches(request) }) else { return nil }
        if let remaining = stubs[index].remainingUses {
            if remaining <= 1 { return stubs.remove(at: index).respond }
            stubs[index].remainingUses = remaining - 1
        }
        return stubs[index].respond
    }
}
