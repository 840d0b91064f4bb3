/// Where `courier ws` takes the lines it sends: stdin, or a list in the tests.
protocol LineSource: Sendable {
    /// The next line, `nil` at the end.
    func next() async -> String?
}
