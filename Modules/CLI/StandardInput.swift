internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// When stdin is a request body.
///
/// httpie reads stdin whenever it is not a terminal, so a script run from cron or CI (stdin
/// `/dev/null`, a socket) silently sends an empty body and turns a `GET` into a `POST`. Here stdin is
/// the body only when it is a pipe, or a regular file with data; a terminal, `/dev/null` and other
/// devices never are. The caller also requires a method that allows a body, no data items and no
/// `--ignore-stdin`.
enum StandardInput {
    /// Whether stdin has a body to read.
    static var hasBody: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || (type == S_IFREG && info.st_size > 0)
    }

    /// Reads stdin to its end.
    static func readAll() throws(CommandFailure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read stdin: \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }
}
