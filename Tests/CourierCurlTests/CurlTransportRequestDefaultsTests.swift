import CourierCurl
import CourierTransport
import Testing

@Suite struct CurlTransportRequestDefaultsTests {
    @Test(arguments: [(CurlTransport.CookiePolicy.enabled, true), (.disabled, false)], [true, false])
    func reportTheConfigurationsCookiePolicyAndDecompression(
        cookies: (policy: CurlTransport.CookiePolicy, handled: Bool),
        decompression: Bool
    ) async {
        var configuration = CurlTransport.Configuration()
        configuration.cookiePolicy = cookies.policy
        configuration.automaticDecompression = decompression
        let transport = CurlTransport(configuration: configuration)

        #expect(
            transport.requestDefaults
                == TransportRequestDefaults(handlesCookies: cookies.handled, decompressesResponses: decompression)
        )
        await transport.shutdown()
    }
}
