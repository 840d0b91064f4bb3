/// One diagnostic as a handler receives it: what happened, how severe it is, and where it came from.
///
/// Entries are built only for a handler whose ``DiagnosticHandler/minimumLevel`` admits them, so
/// building one never costs anything while diagnostics are off.
///
/// ```swift
/// struct PrintingHandler: DiagnosticHandler {
///     var minimumLevel: DiagnosticLevel { .debug }
///     func handle(_ entry: DiagnosticEntry) {
///         print("[\(entry.level)] \(entry.label) \(entry.source): \(entry.message) \(entry.metadata)")
///     }
/// }
/// ```
public struct DiagnosticEntry: Sendable, Hashable {
    /// How severe the diagnostic is.
    public var level: DiagnosticLevel
    /// What happened, for people.
    public var message: String
    /// The name of the component instance that emitted it, as configured by the user
    /// (``Diagnostics/label``), such as `"courier.transport"`.
    public var label: String
    /// The module that emitted it, such as `"CourierCurl"` (swift-log's `source`).
    public var source: String
    /// Facts for machines, as string pairs: a transfer's URL, a libcurl code, a host.
    public var metadata: [String: String]
    /// The file that emitted it (`#fileID`).
    public var file: String
    /// The function that emitted it (`#function`).
    public var function: String
    /// The line that emitted it (`#line`).
    public var line: UInt

    /// Creates an entry; ``Diagnostics/log(_:_:metadata:source:file:function:line:)`` does this for
    /// emitters, tests do it to compare.
    ///
    /// ```swift
    /// let entry = DiagnosticEntry(level: .warning, message: "excess body", label: "app", source: "CourierCurl")
    /// ```
    ///
    /// - Parameters:
    ///   - level: How severe the diagnostic is.
    ///   - message: What happened.
    ///   - label: The emitting component instance's label.
    ///   - source: The emitting module.
    ///   - metadata: Facts as string pairs.
    ///   - file: The emitting file.
    ///   - function: The emitting function.
    ///   - line: The emitting line.
    public init(
        level: DiagnosticLevel,
        message: String,
        label: String,
        source: String,
        metadata: [String: String] = [:],
        file: String = "",
        function: String = "",
        line: UInt = 0
    ) {
        self.level = level
        self.message = message
        self.label = label
        self.source = source
        self.metadata = metadata
        self.file = file
        self.function = function
        self.line = line
    }
}
