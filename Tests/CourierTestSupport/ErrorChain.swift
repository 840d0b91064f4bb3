import CourierSerialization

/// The chain of errors under `error`, outermost first: `SerializationError` codes, then the type
/// name of the first error that is not one (where the chain ends).
public func serializationErrorChain(_ error: (any Error)?) -> [String] {
    var names: [String] = []
    var current = error
    while let error = current {
        if let serializationError = error as? SerializationError {
            names.append(serializationError.code.description)
            current = serializationError.underlying
        } else {
            names.append(String(describing: type(of: error)))
            current = nil
        }
    }
    return names
}
