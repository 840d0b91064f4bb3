public import CourierDiagnostics
internal import CourierLocking

/// A diagnostics handler that keeps every entry it is handed; its level can change between
/// emissions.
public final class CollectingDiagnosticHandler: DiagnosticHandler {
    private let state: Lock<(level: DiagnosticLevel, entries: [DiagnosticEntry])>

    /// A handler that admits `minimumLevel` and above.
    public init(minimumLevel: DiagnosticLevel) { state = Lock((minimumLevel, [])) }

    /// The least severe level delivered; settable while in use.
    public var minimumLevel: DiagnosticLevel {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// Keeps the entry.
    public func handle(_ entry: DiagnosticEntry) { state.withLock { $0.entries.append(entry) } }

    /// Every entry so far, in order of arrival.
    public var entries: [DiagnosticEntry] { state.withLock { $0.entries } }

    /// The entries whose metadata has `value` under `key`.
    public func entries(where key: String, is value: String) -> [DiagnosticEntry] {
        entries.filter { $0.metadata[key] == value }
    }
}
