/// Upload pacing for a multipart body: at most `packetSize` bytes per read, then a pause of `delay`.
///
/// AFNetworking's body stream sleeps the reading thread after every packet. Courier never sleeps: the
/// reader answers `HTTPBodyReadResult.paused(until:)` and the transport asks again at that instant.
///
/// ```swift
/// var form = MultipartFormData()
/// try form.throttle(packetSize: MultipartThrottle.suggested3GPacketSize, delay: MultipartThrottle.suggested3GDelay)
/// ```
public struct MultipartThrottle: Sendable, Hashable {
    /// AFNetworking's suggested packet size for 3G links: 16 KiB.
    public static let suggested3GPacketSize = 16_384
    /// AFNetworking's suggested delay for 3G links: 0.2 s.
    public static let suggested3GDelay = Duration.milliseconds(200)

    /// The most bytes one read returns.
    public let packetSize: Int
    /// How long the reader pauses after each packet.
    public let delay: Duration

    /// Creates a pacing rule.
    ///
    /// ```swift
    /// let pacing = try MultipartThrottle(packetSize: 16_384, delay: .milliseconds(200))
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   packet size is not positive or the delay is negative.
    public init(packetSize: Int, delay: Duration) throws(SerializationError) {
        guard packetSize > 0 else {
            throw MultipartErrors.invalidPart("a throttle packet size must be positive, not \(packetSize)")
        }
        guard delay >= .zero else {
            throw MultipartErrors.invalidPart("a throttle delay may not be negative, not \(delay)")
        }
        self.packetSize = packetSize
        self.delay = delay
    }
}
