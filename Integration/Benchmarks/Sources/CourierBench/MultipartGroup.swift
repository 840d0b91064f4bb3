/// `multipart`: written by the multipart work.
enum MultipartGroup {
    static func run() throws {}
    static func child(_ arguments: [String]) throws {}
}
