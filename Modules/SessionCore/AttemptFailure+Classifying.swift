internal import CourierSerialization

extension AttemptFailure {
    /// How the session classifies an attempt's error for its retriers: the transport's failure, or
    /// the serializer's refusal of the status or content type (validation) or of the body
    /// (decoding). The engine and `MockSession` share this one rule.
    package static func classifying(_ error: SessionError) -> AttemptFailure {
        guard error.kind == .serialization, let refusal = error.serialization else { return .transport(error) }
        let validation = refusal.contains(.unacceptableStatusCode) || refusal.contains(.unacceptableContentType)
        return validation ? .validation(error) : .serialization(error)
    }
}
