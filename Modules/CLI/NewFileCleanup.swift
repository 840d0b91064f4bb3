#if canImport(Glibc)
    internal import Glibc
#endif

/// Removes the empty file a `.file` transfer created when it failed before any response.
///
/// The transport opens (and so creates) the destination before it connects, and leaves it as it is
/// when the transfer fails early, which keeps an existing partial download intact. A file that did
/// not exist before the command, though, is only litter: a refused connection leaves nothing behind.
struct NewFileCleanup {
    let path: String
    private let existedBefore: Bool

    init(path: String) {
        self.path = path
        existedBefore = access(path, F_OK) == 0
    }

    func removeIfLeftEmpty() {
        guard !existedBefore else { return }
        var info = stat()
        if stat(path, &info) == 0, info.st_size == 0 { _ = unlink(path) }
    }
}
