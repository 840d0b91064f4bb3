internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

/// Query strings and request serializers: the part of Courier that links no libcurl.
struct SerializationDemo {
    static let parameters: Parameters = [
        "user": ["name": "Jane Doe", "email": "jane@example.com", "tags": ["a", "b", "c"], "age": 42],
        "q": "swift & linux/?",
        "page": 3,
        "emoji": "😀",
    ]

    struct Search: Encodable {
        struct User: Encodable {
            let name: String
            let email: String
            let tags: [String]
            let age: Int
        }
        let user: User
        let q: String
        let page: Int
        let emoji: String
    }

    func run() -> Int {
        var failures = 0
        DemoOutput.section("Query strings (CourierSerialization: no libcurl, no OpenSSL)")
        let query = QueryStringEncoder().encode(Self.parameters)
        DemoOutput.line("parameters", "\(Self.parameters.count) keys, nested dictionary, array, emoji")
        DemoOutput.line("encoded", query)
        let expected =
            "emoji=%F0%9F%98%80&page=3&q=swift%20%26%20linux/?&user%5Bage%5D=42&user%5Bemail%5D=jane%40example.com"
            + "&user%5Bname%5D=Jane%20Doe&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b&user%5Btags%5D%5B%5D=c"
        failures += check(query == expected, "AFNetworking's query string")

        let search = Search(
            user: .init(name: "Jane Doe", email: "jane@example.com", tags: ["a", "b", "c"], age: 42),
            q: "swift & linux/?",
            page: 3,
            emoji: "😀"
        )
        do {
            let encodable = try URLEncodedFormEncoder.afNetworkingCompatible.encode(search)
            DemoOutput.line("Encodable, same input", encodable == query ? "identical bytes" : encodable)
            failures += check(encodable == query, "Encodable form encoder matches the parameter encoder")
        } catch {
            failures += check(false, "Encodable form encoding: \(error)")
        }

        DemoOutput.section("Request serializers")
        do {
            var serializer = HTTPRequestSerializer(preferredLanguages: ["en-GB", "fr"], userAgent: "demo/1.0 (Linux)")
            serializer.setAuthorizationHeader(username: "jane", password: "secret")
            let get = try serializer.request(
                method: .get,
                urlString: "https://api.example.com/search#top",
                parameters: ["q": "swift", "page": 2]
            )
            DemoOutput.line("GET", get.url.absoluteString)
            failures += check(
                get.url.absoluteString == "https://api.example.com/search?page=2&q=swift#top",
                "query goes before the fragment"
            )
            for field in get.headers { DemoOutput.line("  header", "\(field.name): \(field.value)") }

            let post = try serializer.request(
                method: .post,
                urlString: "https://api.example.com/items",
                parameters: ["name": "Ada", "tags": ["x"]]
            )
            let form = String(decoding: post.body.bytes ?? Data(), as: UTF8.self)
            DemoOutput.line("POST form body", form)
            DemoOutput.line("  Content-Type", post.headers["Content-Type"] ?? "-")
            failures += check(form == "name=Ada&tags%5B%5D=x", "form body")

            let json = JSONRequestSerializer(writingOptions: [.sortedKeys])
            let jsonPost = try json.request(
                method: .post,
                urlString: "https://api.example.com/items",
                parameters: ["name": "Ada", "age": 36]
            )
            let body = String(decoding: jsonPost.body.bytes ?? Data(), as: UTF8.self)
            DemoOutput.line("POST JSON body", body)
            failures += check(body == #"{"age":36,"name":"Ada"}"#, "JSON body")

            do {
                _ = try json.request(
                    method: .post,
                    urlString: "https://api.example.com/items",
                    parameters: ["bad": .double(.nan)]
                )
                failures += check(false, "NaN must not serialize")
            } catch {
                DemoOutput.line("NaN parameter", "\(error.code), \(error.urlErrorCode): \(error.failureReason ?? "")")
            }
        } catch {
            failures += check(false, "request serializers: \(error)")
        }
        return failures
    }
}
