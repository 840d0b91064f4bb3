internal import Courier
internal import CourierCurl
internal import CourierHTTP
internal import CourierImageCache
internal import CourierImageDecoding
internal import CourierImageDownloader
internal import FoundationEssentials

/// `courier image URL [--thumbnail WxH] -o FILE`: an image through the image downloader (merging,
/// the memory cache, decoding off the transport's thread), shrunk to fit, written as PNG.
enum ImageCommand {
    static let usage = "courier image URL [--thumbnail WxH] -o FILE [--cacert FILE] [--no-proxy]"

    static func run(_ words: [String]) async -> Int32 {
        let parsed: ParsedArguments
        do {
            var specification = ArgumentSpecification(
                flags: ["--help", "--no-proxy"],
                options: ["--thumbnail", "--output", "--cacert"],
                aliases: ["-o": "--output"]
            )
            specification.variadicPositionals = true
            parsed = try ParsedArguments.parse(words, specification)
            if parsed.has("--help") {
                print("usage: \(usage)")
                return 0
            }
            guard parsed.positionals.count == 1, parsed.value("--output") != nil else {
                throw UsageError(message: "one URL and -o FILE")
            }
        } catch {
            StandardStreams.printError("courier image: \(error)\nusage: \(usage)")
            return 1
        }
        var bounds: (width: Int, height: Int)?
        if let text = parsed.value("--thumbnail") {
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                StandardStreams.printError("courier image: --thumbnail takes WIDTHxHEIGHT, such as 128x128")
                return 1
            }
            bounds = (parts[0], parts[1])
        }
        guard let url = URL(string: parsed.positionals[0]), url.scheme == "http" || url.scheme == "https" else {
            StandardStreams.printError("courier image: \(parsed.positionals[0]) is not an http or https URL")
            return 1
        }
        let output = parsed.value("--output") ?? ""
        let client: CourierClient
        do {
            client = try CourierClient { configuration in
                configuration.curl.tls.caFile = parsed.value("--cacert")
                if parsed.has("--no-proxy") { configuration.curl.proxy = .none }
            }
        } catch {
            StandardStreams.printError("courier image: \(error)")
            return 1
        }
        let status: Int32
        do {
            let downloader = ImageDownloader(session: client.session.session)
            let image = try await downloader.image(for: HTTPRequest(url: url)).image
            let result = try bounds.map { try image.thumbnail(fitting: $0.width, $0.height) } ?? image
            let png = try PNGEncoder().encode(result)
            try png.write(to: URL(fileURLWithPath: output))
            print("\(image.width)x\(image.height) -> \(result.width)x\(result.height), \(png.count) bytes, \(output)")
            status = 0
        } catch {
            StandardStreams.printError("courier image: \(error)")
            status = 1
        }
        await client.shutdown()
        return status
    }
}
