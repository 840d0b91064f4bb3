internal import CourierCurl
internal import FoundationEssentials

/// What the session steps of the tour share: the loopback servers' addresses from the
/// environment `ci/demo` exports, and a transport that goes to them directly.
enum DemoServers {
    /// The URL in the environment variable `name`, if the servers are up.
    static func url(_ name: String) -> URL? {
        TransportDemo.environment(name).flatMap(URL.init(string:))
    }

    /// Says why a step is skipped when the servers are not up; counts no failure.
    static func skip() -> Int {
        print("  skipped: this part needs the loopback test servers; `ci/demo` starts them and runs it")
        return 0
    }

    /// A transport that never goes through a proxy (the servers are on loopback).
    static func directTransport() -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        return CurlTransport(configuration: configuration)
    }
}
