@_spi(_Unicode) internal import Swift

/// Text folded to printable ASCII, close to the ICU transform AFNetworking applies to its
/// `User-Agent` (`Any-Latin; Latin-ASCII; [:^ASCII:] Remove`).
///
/// FoundationEssentials has no transliteration and this module must not link ICU-backed Foundation,
/// so the fold is built from the standard library's canonical decomposition (NFD): `é` decomposes to
/// `e` and a combining accent, and the accent, like anything else outside printable ASCII, is then
/// dropped. Letters that have no decomposition (`ß`, `æ`, `ø`, `đ`, `ł`, …) and common typographic
/// punctuation come from ``replacements``, with ICU's Latin-ASCII spellings.
///
/// What ICU does and this does not: other scripts are romanised by ICU (`Привет` becomes `Privet`)
/// and dropped here; ICU's compatibility folds (full-width letters, superscripts, `½`, `©`, most
/// symbols) are dropped here too, apart from the ligatures in the table.
enum LatinASCII {
    /// Printable ASCII (space to tilde): what a field value may carry without escaping.
    static func fold(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text._nfd {
            if (0x20...0x7E).contains(scalar.value) {
                output.append(scalar)
            } else if let replacement = replacements[scalar] {
                output.append(contentsOf: replacement.unicodeScalars)
            }
        }
        return String(output)
    }

    /// ICU Latin-ASCII's spellings for letters and punctuation that canonical decomposition leaves
    /// whole.
    static let replacements: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
        "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "ł": "l", "Ł": "L", "ŀ": "l", "Ŀ": "L", "ħ": "h",
        "Ħ": "H", "ı": "i", "ŧ": "t", "Ŧ": "T", "þ": "th", "Þ": "TH", "ſ": "s", "ĸ": "q", "ŉ": "'n",
        "ĳ": "ij", "Ĳ": "IJ", "ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl",
        "\u{00A0}": " ", "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": ",", "\u{201C}": "\"",
        "\u{201D}": "\"", "\u{201E}": ",,", "\u{2013}": "-", "\u{2014}": "-", "\u{2026}": "...",
        "\u{00AB}": "<<", "\u{00BB}": ">>",
    ]
}
