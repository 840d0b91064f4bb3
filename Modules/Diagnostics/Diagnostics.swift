/// What an emitting component holds: an optional ``DiagnosticHandler`` and the label its entries
/// carry. Off (``disabled``) by default wherever Courier takes one.
///
/// ``log(_:_:metadata:source:file:function:line:)`` takes its message and metadata as autoclosures
/// and evaluates them only when a handler is set and its ``DiagnosticHandler/minimumLevel`` admits
/// the level, so a diagnostic on a hot path costs one `nil` check while diagnostics are off.
///
/// ```swift
/// let diagnostics = Diagnostics(handler: CollectingHandler(), label: "app.network")
/// diagnostics.log(.warning, "the server sent \(excess) bytes too many", metadata: ["url": url.absoluteString])
/// ```
public struct Diagnostics: Sendable {
    /// Where entries go; nil turns diagnostics off.
    public let handler: (any DiagnosticHandler)?
    /// The label every entry carries (``DiagnosticEntry/label``), to tell components apart.
    public let label: String

    /// Creates the diagnostics of one component.
    ///
    /// ```swift
    /// configuration.diagnostics = Diagnostics(handler: handler, label: "app.network")
    /// ```
    ///
    /// - Parameters:
    ///   - handler: Where entries go; nil turns diagnostics off.
    ///   - label: The label of the component's entries.
    public init(handler: (any DiagnosticHandler)?, label: String = "courier") {
        self.handler = handler
        self.label = label
    }

    /// No handler: nothing is ever built or delivered.
    public static var disabled: Diagnostics { Diagnostics(handler: nil) }

    /// Whether an entry of `level` would be delivered now; use it to skip work that only feeds
    /// diagnostics (gathering several values for one message).
    ///
    /// ```swift
    /// if diagnostics.isEnabled(.debug) { diagnostics.log(.debug, describe(expensiveState())) }
    /// ```
    ///
    /// - Parameter level: The level of the entry.
    /// - Returns: True when a handler is set and admits `level`.
    @inlinable
    public func isEnabled(_ level: DiagnosticLevel) -> Bool {
        guard let handler else { return false }
        return level >= handler.minimumLevel
    }

    /// Delivers an entry to the handler when one is set and admits `level`; otherwise evaluates
    /// neither the message nor the metadata.
    ///
    /// ```swift
    /// diagnostics.log(.notice, "HTTP/2 GOAWAY without error", metadata: ["url": url.absoluteString])
    /// ```
    ///
    /// - Parameters:
    ///   - level: How severe the diagnostic is.
    ///   - message: What happened; built only when delivered.
    ///   - metadata: Facts as string pairs; built only when delivered.
    ///   - source: The emitting module; nil takes the module from `file` (`#fileID` begins with it).
    ///   - file: The emitting file.
    ///   - function: The emitting function.
    ///   - line: The emitting line.
    @inlinable
    public func log(
        _ level: DiagnosticLevel,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:],
        source: String? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        guard let handler, level >= handler.minimumLevel else { return }
        handler.handle(
            DiagnosticEntry(
                level: level,
                message: message(),
                label: label,
                source: source ?? Self.module(ofFileID: file),
                metadata: metadata(),
                file: file,
                function: function,
                line: line
            )
        )
    }

    /// The module part of a `#fileID` (`"CourierCurl/CurlLoop.swift"` → `"CourierCurl"`).
    @usableFromInline
    static func module(ofFileID fileID: String) -> String {
        guard let slash = fileID.firstIndex(of: "/") else { return fileID }
        return String(fileID[..<slash])
    }
}
