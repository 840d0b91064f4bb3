import CourierHTTP
import CourierImageCache
import CourierImageDecoding
import CourierImageDownloader
import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Dispatch
import Foundation

/// A 2 × 2 image of one colour, and its PNG file.
func solidImage(_ value: UInt8) throws -> PixelImage {
    try PixelImage(width: 2, height: 2, pixels: [UInt8](repeating: value, count: 16))
}

func png(_ value: UInt8) throws -> Data {
    try PNGEncoder().encode(solidImage(value))
}

func request(_ path: String) -> HTTPRequest {
    HTTPRequest(url: URL(string: "https://images.test/\(path)")!)
}

/// A mock server whose image transfers wait at `gate`; every URL answers with a PNG of `value`.
func gatedTransport(_ gate: TransferGate, value: UInt8 = 7) throws -> MockTransport {
    let transport = MockTransport()
    let body = try png(value)
    transport.stub(
        matching: { _ in true },
        respond: { recorded in
            await gate.pass(recorded.url.absoluteString)
            return MockTransport.Reply(status: 200, headers: ["Content-Type": "image/png"], body: body)
        }
    )
    return transport
}

/// Collects what the callbacks receive, in the order they ran.
final class Outcomes: Sendable {
    private let results = Lock<[(label: String, result: Result<ImageDownloadResponse, ImageDownloadError>)]>([])

    func callback(_ label: String) -> @Sendable (Result<ImageDownloadResponse, ImageDownloadError>) -> Void {
        { result in self.results.withLock { $0.append((label, result)) } }
    }

    var labels: [String] { results.withLock { $0.map(\.label) } }

    func result(_ label: String) -> Result<ImageDownloadResponse, ImageDownloadError>? {
        results.withLock { $0.first { $0.label == label }?.result }
    }

    func error(_ label: String) -> ImageDownloadError? {
        guard case .failure(let error) = result(label) else { return nil }
        return error
    }

    func response(_ label: String) -> ImageDownloadResponse? {
        guard case .success(let response) = result(label) else { return nil }
        return response
    }
}

/// A fetcher whose fetches the test completes by hand: for the orderings a real transport makes
/// hard to force. A cancel completes the fetch with a cancelled error, unless `completesOnCancel`
/// is off, when the fetch goes on until the test ends it (a transfer that finished as it was
/// cancelled). A fetch completes once; later completions are ignored.
final class ManualFetcher: ImageFetching {
    final class Fetch: ImageFetch {
        let request: HTTPRequest
        private let completion: @Sendable (ImageFetchResult) -> Void
        private let completesOnCancel: Bool
        private let flags = Lock((started: false, cancelled: false, completed: false))

        init(
            request: HTTPRequest,
            completesOnCancel: Bool,
            completion: @escaping @Sendable (ImageFetchResult) -> Void
        ) {
            self.request = request
            self.completesOnCancel = completesOnCancel
            self.completion = completion
        }

        var started: Bool { flags.withLock { $0.started } }
        var cancelled: Bool { flags.withLock { $0.cancelled } }
        func start() { flags.withLock { $0.started = true } }

        func cancel() {
            flags.withLock { $0.cancelled = true }
            guard completesOnCancel else { return }
            let error = SessionError(kind: .cancelled, message: "cancelled", failingURL: request.url)
            complete(ImageFetchResult(response: nil, outcome: .failure(error)))
        }

        func succeed(_ image: PixelImage) {
            complete(ImageFetchResult(response: HTTPResponse(status: .ok), outcome: .success(image)))
        }

        private func complete(_ result: ImageFetchResult) {
            let first = flags.withLock { flags in
                defer { flags.completed = true }
                return !flags.completed
            }
            if first { completion(result) }
        }
    }

    private let made = Lock<[Fetch]>([])
    private let completesOnCancel: Bool

    init(completesOnCancel: Bool = true) {
        self.completesOnCancel = completesOnCancel
    }

    var fetches: [Fetch] { made.withLock { $0 } }
    var urls: [String] { fetches.map(\.request.url.lastPathComponent) }

    func makeFetch(
        for request: HTTPRequest,
        completion: @escaping @Sendable (ImageFetchResult) -> Void
    ) -> any ImageFetch {
        let fetch = Fetch(request: request, completesOnCancel: completesOnCancel, completion: completion)
        made.withLock { $0.append(fetch) }
        return fetch
    }
}

/// A callback queue the tests can recognise.
let callbackKey = DispatchSpecificKey<String>()

func labelledQueue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: callbackKey, value: label)
    return queue
}
