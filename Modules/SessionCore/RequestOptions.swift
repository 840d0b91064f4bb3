public import CourierTransport

/// How one request is sent and received, beside the session's own settings.
///
/// Every ``HTTPSession`` requirement takes one: a new per-request setting becomes a field here,
/// with a default, so conformers and callers keep compiling.
///
/// ```swift
/// var options = RequestOptions()
/// options.download = DownloadOptions(partialFilePath: "/var/tmp/big.iso.part", persistsResumeRecord: true)
/// let response = await session.download(for: request, to: destination, options: options)
/// ```
public struct RequestOptions: Sendable {
    /// How the transport delivers the body (its buffer sizes, or straight to a file).
    public var transfer: TransferOptions
    /// Where a download keeps its partial file; used by downloads only.
    public var download: DownloadOptions
    /// This request's adapters and retriers, composed with the session's as Alamofire composes
    /// them: the request's adapt first and are asked first, then the session's.
    ///
    /// ```swift
    /// var options = RequestOptions()
    /// options.interceptor = Interceptor(adapters: [BearerToken(token: token)])
    /// ```
    public var interceptor: (any RequestInterceptor)?
    /// This request's redirect handler; it replaces the session's for this request (Alamofire's
    /// precedence). The redirect rules and the session's limit still apply.
    ///
    /// ```swift
    /// var options = RequestOptions()
    /// options.redirectHandler = Redirector.doNotFollow
    /// ```
    public var redirectHandler: (any RedirectHandling)?

    /// Creates options; the defaults are the session's usual behaviour.
    ///
    /// ```swift
    /// let options = RequestOptions(transfer: TransferOptions())
    /// ```
    /// - Parameters:
    ///   - transfer: How the transport delivers the body.
    ///   - download: Where a download keeps its partial file.
    ///   - interceptor: This request's interceptor, composed with the session's.
    ///   - redirectHandler: This request's redirect handler, in place of the session's.
    public init(
        transfer: TransferOptions = TransferOptions(),
        download: DownloadOptions = DownloadOptions(),
        interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: (any RedirectHandling)? = nil
    ) {
        self.transfer = transfer
        self.download = download
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
    }
}
