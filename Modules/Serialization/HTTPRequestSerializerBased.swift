public import CourierHTTP
public import FoundationEssentials

/// A serializer that builds on an ``HTTPRequestSerializer``: it shares its default headers, its
/// per-request settings and its URI methods, and adds a body format of its own.
///
/// Conformers get the `base` forwarding for free: `makeRequest(method:url:)` applies the base's
/// settings, and with `@dynamicMemberLookup` the base's properties read and write as their own.
///
/// ```swift
/// var serializer = JSONRequestSerializer()
/// serializer.timeout = .seconds(5)  // forwarded to serializer.base
/// ```
public protocol HTTPRequestSerializerBased: RequestSerializing {
    /// The HTTP serializer underneath.
    var base: HTTPRequestSerializer { get set }
}

extension HTTPRequestSerializerBased {
    /// Reads and writes the settings of `base`, such as `timeout` or `methodsEncodingParametersInURI`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPRequestSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// Applies `base`'s explicitly set per-request settings.
    public func makeRequest(method: HTTPMethod, url: URL) -> HTTPRequest {
        base.makeRequest(method: method, url: url)
    }
}
