/// A command's failure that is not a transport error: an unreadable file, an HTTP error status, a
/// broken output stream. `courier` prints it on stderr and exits with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
