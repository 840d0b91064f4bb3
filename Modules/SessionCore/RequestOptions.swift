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

    /// Creates options; the defaults are the session's usual behaviour.
    ///
    /// ```swift
    /// let options = RequestOptions(transfer: TransferOptions())
    /// ```
    /// - Parameters:
    ///   - transfer: How the transport delivers the body.
    ///   - download: Where a download keeps its partial file.
    public init(transfer: TransferOptions = TransferOptions(), download: DownloadOptions = DownloadOptions()) {
        self.transfer = transfer
        self.download = download
    }
}
