internal import Glibc

/// The default `User-Agent` value: `<executable name>/<version> (Linux <kernel release>)`.
///
/// This is the Linux counterpart of AFNetworking's `<bundle name>/<version> (Mac OS X <version>)`.
/// As in AFNetworking, the value is folded to printable ASCII, which keeps it a valid field value
/// (RFC 9110 §10.1.5): accented Latin letters lose their accents (`Café` becomes `Cafe`), letters
/// without a decomposition get ICU's Latin-ASCII spelling (`Straße` becomes `Strasse`, `Łódź`
/// `Lodz`), and what remains outside ASCII is removed. AFNetworking uses ICU, which also romanises
/// other scripts (`Привет` becomes `Privet`) and folds symbols such as `½`; Courier, which links no
/// ICU, drops those characters instead.
///
/// ```swift
/// UserAgent.headerValue(executableName: "courier", version: "1.2", kernelRelease: "6.1.0-18-amd64")
/// // "courier/1.2 (Linux 6.1.0-18-amd64)"
/// ```
public enum UserAgent {
    /// Builds the header value from its parts.
    ///
    /// Linux executables carry no version, so `version` may be `nil`: the product is then the name
    /// alone, which RFC 9110's `product = token ["/" product-version]` allows (AFNetworking would print
    /// `(null)`). A `nil` kernel release prints `Linux` alone.
    ///
    /// ```swift
    /// UserAgent.headerValue(executableName: "worker", version: nil, kernelRelease: nil)  // "worker (Linux)"
    /// ```
    public static func headerValue(executableName: String, version: String?, kernelRelease: String?) -> String {
        var product = executableName
        if let version, !version.isEmpty { product += "/" + version }
        var system = "Linux"
        if let kernelRelease, !kernelRelease.isEmpty { system += " " + kernelRelease }
        return asciiOnly(product + " (" + system + ")")
    }

    /// The value for this process: its executable's name, `version`, and the kernel release from
    /// `uname(2)`.
    ///
    /// ```swift
    /// let value = UserAgent.current(version: "2.0")  // "my-tool/2.0 (Linux 6.1.0-18-amd64)"
    /// ```
    public static func current(version: String? = nil) -> String {
        headerValue(executableName: executableName, version: version, kernelRelease: kernelRelease)
    }

    /// The last path component of the command that started this process.
    public static var executableName: String {
        let path = CommandLine.arguments.first ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "courier" : name
    }

    /// The kernel release (`uname -r`), or `nil` when `uname(2)` fails.
    public static var kernelRelease: String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        return withUnsafeBytes(of: &names.release) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Folds to printable ASCII, as AFNetworking transliterates a non-ASCII `User-Agent`.
    static func asciiOnly(_ text: String) -> String {
        LatinASCII.fold(text)
    }
}
