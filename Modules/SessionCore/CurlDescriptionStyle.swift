/// How a `curl` command line describing a request is laid out.
///
/// ```swift
/// print(request.curlDescription(style: .multiLine))
/// // curl \
/// //   -X 'GET' \
/// //   -H 'Accept: application/json' \
/// //   -H 'User-Agent: app/1.0 (Linux)' \
/// //   'https://api.example.com/items'
/// ```
public enum CurlDescriptionStyle: Sendable, Hashable {
    /// The whole command on one line, for a log line.
    case singleLine
    /// One option a line, each line but the last ending in ` \` (Alamofire's `cURLDescription`
    /// layout), for a bug report.
    case multiLine
}
