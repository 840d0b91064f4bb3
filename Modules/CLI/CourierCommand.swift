internal import CourierHTTP

@main
struct CourierCommand {
    static func main() {
        print(HTTPStatus.ok)
    }
}
