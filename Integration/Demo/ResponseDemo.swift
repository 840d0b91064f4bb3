internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

/// Response validation and decoding, with AFNetworking's errors.
struct ResponseDemo {
    struct User: Decodable, Sendable {
        let name: String
        let languages: [String]
    }

    func run() -> Int {
        var failures = 0
        DemoOutput.section("Response serializers")
        let url = URL(fileURLWithPath: "/")
        func response(_ status: Int, _ contentType: String) -> HTTPResponse {
            var headers = HTTPHeaders()
            try? headers.add(name: "Content-Type", value: contentType)
            return HTTPResponse(status: HTTPStatus(code: status), headers: headers, url: url)
        }
        let body = Data(#"{"name":"Ada","languages":["Swift","C"],"nickname":null}"#.utf8)

        do {
            let user = try DecodableResponseSerializer<User>()
                .serialize(response: response(200, "application/json; charset=utf-8"), data: body)
            DemoOutput.line(
                "Decodable",
                "\(user?.name ?? "-") writes \(user?.languages.joined(separator: ", ") ?? "-")"
            )
            failures += check(user?.name == "Ada", "Decodable value")

            let json = try JSONResponseSerializer(removesKeysWithNullValues: true)
                .serialize(response: response(200, "application/json"), data: body)
            DemoOutput.line("JSONValue, nulls removed", json.map { "\($0)" } ?? "-")
        } catch {
            failures += check(false, "decoding: \(error)")
        }

        let notFound = DecodableResponseSerializer<User>()
            .serializedResponse(response: response(404, "text/html"), data: Data("<h1>gone</h1>".utf8), request: nil)
        if let error = notFound.error {
            DemoOutput.line("404 as text/html", "\(error.localizedDescription) [\(error.urlErrorCode)]")
            if let underlying = error.underlying as? SerializationError {
                DemoOutput.line("  underneath", "\(underlying.localizedDescription) [\(underlying.urlErrorCode)]")
            }
            failures += check(error.contains(.unacceptableContentType), "status and content-type errors are chained")
        } else {
            failures += check(false, "a 404 must fail validation")
        }

        do {
            _ = try JSONResponseSerializer().serialize(
                response: response(200, "application/json"),
                data: Data("{\"a\":".utf8)
            )
            failures += check(false, "truncated JSON must fail")
        } catch {
            DemoOutput.line("truncated JSON", "\(error.code): \(error.localizedDescription)")
        }
        return failures
    }
}
