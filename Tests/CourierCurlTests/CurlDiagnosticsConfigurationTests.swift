import Testing

@testable import CourierCurl

@Suite struct CurlDiagnosticsConfigurationTests {
    /// Diagnostics are off unless a user sets a handler, so the transport installs the plain debug
    /// callback and every diagnostics site returns at its flag.
    @Test func diagnosticsAreOffByDefault() {
        #expect(!CurlTransport.Configuration().hasDiagnosticsHandler)
    }
}
