internal import CourierSessionCore

/// A request's own interceptor and redirect handler, and how they combine with the session's.
struct PerRequestHandlers: Sendable {
    var interceptor: (any RequestInterceptor)?
    var redirectHandler: (any RedirectHandling)?

    init(interceptor: (any RequestInterceptor)? = nil, redirectHandler: (any RedirectHandling)? = nil) {
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
    }

    init(_ options: RequestOptions) {
        self.init(interceptor: options.interceptor, redirectHandler: options.redirectHandler)
    }

    /// Alamofire's composition (`Session.adapter(for:)` and `retrier(for:)`): the request's
    /// interceptor adapts first and is asked first, then the session's; either alone stands alone.
    func interceptor(composedWith session: (any RequestInterceptor)?) -> (any RequestInterceptor)? {
        guard let interceptor else { return session }
        guard let session else { return interceptor }
        return Interceptor(interceptors: [interceptor, session])
    }
}
