internal import CourierHTTP
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

extension DownloadCompletion {
    /// The `416` that answered this resume because the partial file already holds the whole body,
    /// or `nil`: the transfer failed with `resumeFailed` on a `416` whose `Content-Range:
    /// bytes */N` names a complete length `N` equal to the resume offset, and the partial file
    /// still has exactly those bytes.
    ///
    /// The request carried `If-Range`, so a server that answers `416` rather than `200` found the
    /// validator matching (RFC 9110 §13.1.5, §14.2): the file has not changed, and no byte lies
    /// past the offset (§15.5.17, whose `Content-Range` gives the current length, §14.4). A `416`
    /// with another length, or none, is a changed or unknown file and stays `resumeFailed`.
    func completedBeforeResume(_ result: TaskRunner.Result) -> HTTPResponse? {
        guard let resume, let error = result.error, error.kind == .transport(.resumeFailed),
            let refused = error.transportError?.response, refused.status.code == 416,
            let length = refused.headers["Content-Range"].flatMap(Self.unsatisfiedRangeLength),
            length == resume.offset, length > 0, Self.size(of: temporaryPath) == length
        else { return nil }
        return refused
    }

    /// The complete length of an unsatisfied range, `bytes */N` (RFC 9110 §14.4); `nil` for any
    /// other form.
    static func unsatisfiedRangeLength(_ value: String) -> Int64? {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        guard trimmed.prefix(5).lowercased() == "bytes" else { return nil }
        let rest = trimmed.dropFirst(5).drop { $0 == " " }
        guard rest.hasPrefix("*/") else { return nil }
        let digits = rest.dropFirst(2).prefix { $0 != " " && $0 != "\t" }
        guard rest.dropFirst(2 + digits.count).allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(digits)
    }
}
