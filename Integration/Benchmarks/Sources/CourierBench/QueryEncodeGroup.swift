/// `query-encode`: written by the query-string work.
enum QueryEncodeGroup {
    static func run() throws {}
}
