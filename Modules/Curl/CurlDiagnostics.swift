internal import CourierDiagnostics
internal import CourierHTTP
internal import FoundationEssentials

extension CurlLoop {
    /// Reports something the loop or one of its transfers noticed and handled, or a libcurl call
    /// whose failure nobody else sees; a transfer adds its URL and id to the metadata. Free without a
    /// handler: message and metadata are autoclosures, built only when delivered.
    func diagnose(
        _ level: DiagnosticLevel,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:],
        about transfer: CurlTransferState? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        guard hasDiagnostics else { return }
        configuration.diagnostics.log(
            level,
            message(),
            metadata: {
                var metadata = metadata()
                if let transfer {
                    metadata["url"] = transfer.request.url.absoluteString
                    metadata["transfer"] = String(transfer.id)
                }
                return metadata
            }(),
            file: file,
            function: function,
            line: line
        )
    }
}

extension CurlTransport.Configuration {
    /// Whether diagnostics go anywhere; decides once which callbacks and checks a transport sets up.
    var hasDiagnosticsHandler: Bool { diagnostics.handler != nil }
}
