// `import Courier` gives the layers an app talks to; the libcurl and OpenSSL backends stay behind
// the root (their settings are reachable through `CourierClient.Configuration`), and the image
// stack is a product of its own, so an app that only fetches JSON links no image codec. The HTTP
// cache comes along: `configuration.session.cache = HTTPCache()` turns it on.
@_exported public import CourierHTTP
@_exported public import CourierHTTPCache
@_exported public import CourierSecurity
@_exported public import CourierSerialization
@_exported public import CourierSessionCore
@_exported public import CourierSessionEngine
@_exported public import CourierTransport
@_exported public import CourierWebSocket
