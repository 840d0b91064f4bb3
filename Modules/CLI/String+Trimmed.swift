extension String {
    /// The text without the spaces and tabs around it: the optional white space (`OWS`, RFC 9110
    /// §5.6.3) around header values, parameters and cookie pairs.
    var trimmed: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
