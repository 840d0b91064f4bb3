/// Receives what Courier's modules notice and would otherwise keep to themselves.
///
/// This is Courier's logging seam, shaped like swift-log's `LogHandler`: an entry has a
/// ``DiagnosticLevel``, a message, a label and a source, and metadata as string pairs. A component
/// that emits diagnostics takes a ``Diagnostics`` value in its configuration (for the libcurl
/// transport, `CurlTransport.Configuration.diagnostics`); with no handler there, nothing is
/// formatted and nothing is called.
///
/// Entries below ``minimumLevel`` are never built: emitters pass their messages as autoclosures,
/// evaluated only after the level check. ``handle(_:)`` is called synchronously on the emitting
/// thread, which may be a transport's loop thread in the middle of a TLS handshake, so it must
/// return quickly and must never block: hand the entry to a queue or a buffered logger.
///
/// ```swift
/// final class CollectingHandler: DiagnosticHandler {
///     let entries = Mutex<[DiagnosticEntry]>([])
///     var minimumLevel: DiagnosticLevel { .debug }
///     func handle(_ entry: DiagnosticEntry) { entries.withLock { $0.append(entry) } }
/// }
///
/// var configuration = CurlTransport.Configuration()
/// configuration.diagnostics = Diagnostics(handler: CollectingHandler(), label: "app.network")
/// ```
///
/// ## Bridging to swift-log
///
/// Courier has no package dependencies, so it does not depend on swift-log; an app that uses
/// swift-log bridges the two in a few lines of its own. The code below belongs in the app, which
/// depends on both `swift-log` and Courier; it is not compiled as part of Courier (swift-log is not
/// a dependency here), so treat it as a sketch to adapt:
///
/// ```swift
/// // In your app, not in Courier: needs `.package(url: "https://github.com/apple/swift-log", from: "1.5.0")`.
/// import CourierCurl
/// import CourierDiagnostics
/// import Logging
///
/// /// Forwards Courier's diagnostics to a swift-log logger, honouring the logger's level.
/// struct SwiftLogDiagnosticHandler: DiagnosticHandler {
///     let logger: Logger
///
///     var minimumLevel: DiagnosticLevel {
///         switch logger.logLevel {
///         case .trace: .trace
///         case .debug: .debug
///         case .info: .info
///         case .notice: .notice
///         case .warning: .warning
///         case .error: .error
///         case .critical: .critical
///         }
///     }
///
///     func handle(_ entry: DiagnosticEntry) {
///         let level: Logger.Level =
///             switch entry.level {
///             case .trace: .trace
///             case .debug: .debug
///             case .info: .info
///             case .notice: .notice
///             case .warning: .warning
///             case .error: .error
///             case .critical: .critical
///             }
///         var metadata = Logger.Metadata()
///         for (key, value) in entry.metadata { metadata[key] = .string(value) }
///         metadata["courier.label"] = .string(entry.label)
///         logger.log(
///             level: level,
///             "\(entry.message)",
///             metadata: metadata,
///             source: entry.source,
///             file: entry.file,
///             function: entry.function,
///             line: entry.line
///         )
///     }
/// }
///
/// var logger = Logger(label: "app.network")
/// logger.logLevel = .debug
/// var configuration = CurlTransport.Configuration()
/// configuration.diagnostics = Diagnostics(handler: SwiftLogDiagnosticHandler(logger: logger), label: "app.network")
/// let transport = CurlTransport(configuration: configuration)
/// ```
///
/// The levels map one to one (``DiagnosticLevel`` has swift-log's seven), and ``minimumLevel``
/// reads the logger's level on every check, so raising the logger's level at run time also stops
/// Courier from formatting the messages it would drop.
public protocol DiagnosticHandler: Sendable {
    /// The least severe level this handler wants; entries below it are neither built nor delivered.
    ///
    /// Read before every emission, so it may change while the handler is in use; it must be cheap.
    var minimumLevel: DiagnosticLevel { get }

    /// Receives one entry at or above ``minimumLevel``.
    ///
    /// Called on the emitting thread (possibly a transport's loop thread); it must not block.
    ///
    /// ```swift
    /// func handle(_ entry: DiagnosticEntry) {
    ///     queue.append("\(entry.level) \(entry.source): \(entry.message)")
    /// }
    /// ```
    ///
    /// - Parameter entry: The diagnostic.
    func handle(_ entry: DiagnosticEntry)
}
