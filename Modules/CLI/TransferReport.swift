internal import CourierHTTP
internal import FoundationEssentials

/// What every transfer command prints after its transfer: a redirect note, `--metrics`, and the
/// exit status an HTTP error status earns.
enum TransferReport {
    static func finish(_ outcome: TransferDriver.Outcome, settings: TransportSettings) -> Int32 {
        if settings.showsMetrics {
            for line in MetricsSummary.lines(outcome.metrics) { StandardStreams.printError(line) }
        }
        guard let response = outcome.response else { return 0 }
        if let location = outcome.redirectLocation {
            StandardStreams.printError(
                "courier: \(response.status) redirects to \(location.absoluteString) (not followed)"
            )
            return 0
        }
        if response.status.code >= 400 {
            StandardStreams.printError("courier: error: HTTP \(response.status)")
            return 1
        }
        return 0
    }
}
