internal import CourierDiagnostics
internal import CourierReachability

/// One monitor's registration with the process's netlink hub: what to look up, how to classify
/// links, where to send the result and the diagnostics.
struct NetlinkSubscriber: Sendable {
    /// The addresses to look up, most preferred first; `nil` while a host name is being resolved.
    var destinations: @Sendable () -> [IPAddress]?
    var classifier: any InterfaceClassifying
    /// Called on the hub thread when the network changed, before the evaluation (a host monitor
    /// resolves its name again).
    var networkChanged: @Sendable () -> Void
    /// Called on the hub thread with each evaluation.
    var evaluated: @Sendable (NetworkPath) -> Void
    var diagnostics: Diagnostics
}
