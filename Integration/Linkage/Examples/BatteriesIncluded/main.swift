import Courier

let client = try CourierClient()
let json: JSONValue = try await client.get("http://httpbin.org/json")
print(json["slideshow"]?["title"]?.stringValue ?? "no title")
// Sample Slide Show
