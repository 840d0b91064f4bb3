import CCourierOpenSSL
import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation

// A child process for the memory-bound tests: it reads responses through `CurlTransport` and
// reports what the kernel counted of its memory, away from the test runner's own allocations.
// Every size is in bytes; the output is one `key=value` per line.
//
//   decode URL HIGHWATER SLEEPMS [CAFILE]
//       reads URL (a compressed body) with a high-water mark of HIGHWATER, sleeping SLEEPMS after
//       every MiB taken; prints baseline (VmRSS after a warm-up request), peak (VmHWM since then),
//       bytes, sha256, largestBuffered, sleeps, fullAtSleep (sleeps after which the transport had
//       at least 1 MiB, or the high-water mark, ready: the consumer was the bottleneck), seconds
//       and failure (if any)
//   streams URL COUNT HIGHWATER CAFILE
//       starts COUNT transfers of URL (a large file over h2: one connection), reads none of them,
//       waits until their buffers stop growing, and prints baseline, rss (VmRSS then), peak,
//       buffered (the transport's buffered body bytes, summed), largestBuffered, filled (transfers
//       holding bytes), connections (distinct local ports) and failed

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

func url(_ text: String) -> URL {
    guard let url = URL(string: text) else { fail("bad URL \(text)") }
    return url
}

func integer(_ text: String) -> Int {
    guard let value = Int(text) else { fail("bad number \(text)") }
    return value
}

func report(_ key: String, _ value: some CustomStringConvertible) {
    print("\(key)=\(value)")
}

/// A field of /proc/self/status in bytes (the kernel writes kB).
func statusBytes(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
        return (Int(String(digits)) ?? -1) * 1024
    }
    return -1
}

/// Resets VmHWM to the current RSS (`clear_refs` with 5, Linux 4.0 and later), so that the peak
/// reported is the peak of the measured part, not of start-up.
func resetPeak() {
    guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
    file.write(Data("5".utf8))
    try? file.close()
}

func makeTransport(caFile: String?, maxStreams: Int? = nil) -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.proxy = .none
    configuration.tls.caFile = caFile
    configuration.totalTimeout = .seconds(120)
    if let maxStreams { configuration.maxConcurrentStreams = maxStreams }
    return CurlTransport(configuration: configuration)
}

/// One small request to the same origin: loads libcurl's and OpenSSL's state, starts the loop
/// thread and leaves a warm connection, so that the baseline holds everything but the bodies.
func warmUp(_ transport: CurlTransport, _ url: URL) async {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.path = "/small"
    guard let small = components?.url else { fail("bad URL \(url)") }
    for await event in transport.startTransfer(HTTPRequest(url: small), options: TransferOptions()).events {
        if case .failed(let error) = event { fail("warm-up failed: \(error)") }
    }
}

/// SHA-256 through OpenSSL's EVP interface, fed piece by piece.
final class Digest {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fail("no SHA-256")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ data: Data) {
        data.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    func finish() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &bytes, &length)
        return bytes.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}

func decode(_ arguments: [String]) async {
    guard arguments.count >= 3 else { fail("decode URL HIGHWATER SLEEPMS [CAFILE]") }
    let target = url(arguments[0])
    var options = TransferOptions()
    options.highWaterMark = integer(arguments[1])
    options.lowWaterMark = min(options.lowWaterMark, options.highWaterMark / 4)
    let sleep = Duration.milliseconds(integer(arguments[2]))
    let transport = makeTransport(caFile: arguments.count > 3 ? arguments[3] : nil)
    await warmUp(transport, target)
    report("baseline", statusBytes("VmRSS"))
    resetPeak()

    let start = ContinuousClock.now
    let transfer = transport.startTransfer(HTTPRequest(url: target), options: options)
    let digest = Digest()
    var received = 0
    var sinceSleep = 0
    var largestBuffered = 0
    var sleeps = 0
    var fullAtSleep = 0
    for await event in transfer.events {
        largestBuffered = max(largestBuffered, transfer.events.bufferedBodyBytes)
        switch event {
        case .body(let chunk):
            digest.update(chunk)
            received += chunk.count
            sinceSleep += chunk.count
            if sinceSleep >= 1 << 20 {
                sinceSleep = 0
                try? await Task.sleep(for: sleep)
                // The transport had filled the buffer while the consumer slept: it was the bottleneck.
                sleeps += 1
                if transfer.events.bufferedBodyBytes >= min(options.highWaterMark, 1 << 20) - (64 << 10) {
                    fullAtSleep += 1
                }
            }
        case .failed(let error): report("failure", String(describing: error).replacingOccurrences(of: "\n", with: " "))
        default: break
        }
    }
    let seconds = start.duration(to: .now)
    report("peak", statusBytes("VmHWM"))
    await transport.shutdown()
    report("bytes", received)
    report("sha256", digest.finish())
    report("largestBuffered", largestBuffered)
    report("sleeps", sleeps)
    report("fullAtSleep", fullAtSleep)
    report("seconds", Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)
}

func streams(_ arguments: [String]) async {
    guard arguments.count >= 4 else { fail("streams URL COUNT HIGHWATER CAFILE") }
    let target = url(arguments[0])
    let count = integer(arguments[1])
    var options = TransferOptions()
    options.highWaterMark = integer(arguments[2])
    options.lowWaterMark = min(options.lowWaterMark, options.highWaterMark / 4)
    let transport = makeTransport(caFile: arguments[3], maxStreams: max(count, 100))
    await warmUp(transport, target)
    report("baseline", statusBytes("VmRSS"))
    resetPeak()

    let transfers = (0..<count).map { _ in transport.startTransfer(HTTPRequest(url: target), options: options) }
    // Unread, each transfer fills its buffer to the high-water mark and pauses; the measure is
    // taken once the sum has not moved for a second (or after 20 seconds).
    var last = -1
    var steady = ContinuousClock.now
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
        let sum = transfers.reduce(0) { $0 + $1.events.bufferedBodyBytes }
        if sum != last {
            last = sum
            steady = .now
        } else if steady.duration(to: .now) >= .seconds(1) {
            break
        }
        try? await Task.sleep(for: .milliseconds(100))
    }
    let buffered = transfers.map(\.events.bufferedBodyBytes)
    report("rss", statusBytes("VmRSS"))
    report("peak", statusBytes("VmHWM"))
    report("buffered", buffered.reduce(0, +))
    report("largestBuffered", buffered.max() ?? 0)
    report("filled", buffered.filter { $0 > 0 }.count)

    for transfer in transfers { transfer.cancel() }
    var connections = Set<Int>()
    var failed = 0
    for transfer in transfers {
        for await event in transfer.events {
            switch event {
            case .completed(let metrics): if let port = metrics.localPort { connections.insert(port) }
            case .failed(let error):
                if error.category != .cancelled { failed += 1 }
                if let port = error.metrics?.localPort { connections.insert(port) }
            default: break
            }
        }
    }
    await transport.shutdown()
    report("connections", connections.count)
    report("failed", failed)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "decode": await decode(Array(arguments.dropFirst()))
case "streams": await streams(Array(arguments.dropFirst()))
default: fail("usage: CourierMemoryHelper decode|streams ...")
}
