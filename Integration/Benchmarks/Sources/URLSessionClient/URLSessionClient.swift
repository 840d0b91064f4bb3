import Foundation
import FoundationNetworking

/// FoundationNetworking's URLSession under the same workload as the C reference client, for
/// `ci/bench transport`. It lives only in the benchmark package: Courier itself never imports
/// FoundationNetworking. Prints the same figure line as `curl_reference`.
@main
struct URLSessionClient {
    struct Options {
        var url: URL?
        var requests = 1000
        var concurrency = 1
        var postBytes = 0
    }

    static func parse() -> Options {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let key = arguments.next(), let value = arguments.next() {
            switch key {
            case "--url": options.url = URL(string: value)
            case "--requests": options.requests = Int(value) ?? options.requests
            case "--concurrency": options.concurrency = Int(value) ?? options.concurrency
            case "--post-bytes": options.postBytes = Int(value) ?? 0
            default:
                FileHandle.standardError.write(Data("ignored option \(key)\n".utf8))
            }
        }
        return options
    }

    static func cpuMicroseconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    /// Peak resident set of this image (`VmHWM`); `ru_maxrss` survives `execve`, so a child of a
    /// large parent would report the parent's size.
    static func peakRSSKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kib = line.split(separator: " ").compactMap({ Int($0) }).first { return kib }
        }
        return -1
    }

    static func main() async throws {
        let options = parse()
        guard let url = options.url else {
            FileHandle.standardError.write(Data("usage: URLSessionClient --url U --requests N --concurrency C\n".utf8))
            exit(2)
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(6, options.concurrency)
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        let body = Data(repeating: UInt8(ascii: "x"), count: options.postBytes)
        var template = URLRequest(url: url)
        if options.postBytes > 0 {
            template.httpMethod = "POST"
            template.httpBody = body
        }
        let request = template
        let cpuStart = cpuMicroseconds()
        let start = Date()
        let counts: (ok: Int, bytes: Int) = try await withThrowingTaskGroup(of: (ok: Int, bytes: Int).self) { group in
            var issued = 0
            var ok = 0
            var bytes = 0
            func issue() {
                issued += 1
                group.addTask {
                    let (data, response) = try await session.data(for: request)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    return (status == 200 ? 1 : 0, data.count)
                }
            }
            while issued < min(options.concurrency, options.requests) { issue() }
            while let result = try await group.next() {
                ok += result.ok
                bytes += result.bytes
                if issued < options.requests { issue() }
            }
            return (ok, bytes)
        }
        let seconds = Date().timeIntervalSince(start)
        let cpu = cpuMicroseconds() - cpuStart
        let uploaded = options.postBytes * options.requests
        print(
            "requests=\(options.requests) ok=\(counts.ok) seconds=\(seconds) cpu_us=\(Int(cpu)) rss_kib=\(peakRSSKiB())",
            "bytes_down=\(counts.bytes) bytes_up=\(uploaded) connects=-1"
        )
        exit(counts.ok == options.requests ? 0 : 1)
    }
}
