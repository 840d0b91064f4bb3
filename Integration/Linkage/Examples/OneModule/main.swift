import CourierSerialization
import FoundationEssentials

let query = QueryStringEncoder().encode([
    "q": "swift & linux",
    "user": ["name": "Jane Doe", "tags": ["a", "b"]],
    "page": 3,
])
print(query)
// page=3&q=swift%20%26%20linux&user%5Bname%5D=Jane%20Doe&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b

var form = MultipartFormData()
try form.appendParts(from: ["title": "Holiday"])
try form.append(Data("hello".utf8), name: "note", fileName: "note.txt", mimeType: "text/plain")
print(form.contentType, form.contentLength)
