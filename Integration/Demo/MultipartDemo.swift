internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// A streamed multipart form: parameters, a file read lazily, exact Content-Length.
struct MultipartDemo {
    func run() async -> Int {
        var failures = 0
        DemoOutput.section("Multipart form (streamed; files are read only while sending)")
        let path = "/tmp/courier-demo-\(getpid()).txt"
        let file = URL(fileURLWithPath: path)
        do {
            try Data("hello from a file\n".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            var parts = 0
            let request = try await HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: "courier-demo")
                .multipartFormRequest(
                    url: URL(fileURLWithPath: "/upload"),
                    parameters: ["title": "Holiday", "tags": ["sea", "sun"]],
                    boundary: "Boundary+DEMO0000DEMO0000"
                ) { form in
                    try form.appendFile(at: file, name: "notes")
                    try form.append(
                        Data([0xFF, 0x00, 0x0D, 0x0A]),
                        name: "blob\"1",
                        fileName: "raw.bin",
                        mimeType: "application/octet-stream"
                    )
                    parts = form.count
                }
            DemoOutput.line("parts", "\(parts)")
            DemoOutput.line("Content-Type", request.headers["Content-Type"] ?? "-")
            DemoOutput.line("Content-Length", request.headers["Content-Length"] ?? "-")
            let body = try await request.body.collect(upTo: 1 << 20)
            print("    " + DemoOutput.preview(body))
            failures += check(
                request.headers["Content-Length"] == String(body.count),
                "Content-Length equals the bytes streamed"
            )
            failures += check(
                String(decoding: body, as: UTF8.self).contains(#"name="blob%221""#),
                "quotes in names are escaped"
            )
            failures += check(request.body.isReplayable, "the body can be sent again after a redirect")
        } catch {
            failures += check(false, "multipart: \(error)")
        }
        return failures
    }
}
