import CourierSerialization
import CourierTestSupport
import FoundationEssentials
import Testing

/// One conformance case, named as in JSONTestSuite: `y_` must be accepted, `n_` must be refused,
/// `i_` is left to the implementation by RFC 8259, and ``accepted`` records what Courier does.
struct JSONConformanceCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    /// Whether Courier accepts it; for `y_` and `n_` this is what RFC 8259 requires.
    let accepted: Bool

    init(_ name: String, _ text: String, accepted: Bool? = nil) {
        self.init(name, bytes: Array(text.utf8), accepted: accepted)
    }

    init(_ name: String, bytes: [UInt8], accepted: Bool? = nil) {
        self.name = name
        self.bytes = bytes
        self.accepted = accepted ?? name.hasPrefix("y_")
    }

    var testDescription: String { name }
}

/// The corpus: RFC 8259's grammar case by case (§2 whitespace and structure, §4 objects, §5
/// arrays, §6 numbers, §7 strings, §8 encoding), in the style of JSONTestSuite.
enum JSONConformanceCorpus {
    static func nested(_ depth: Int, open: String = "[", close: String = "]", inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        let units = (byteOrderMark ? [0xFEFF] : []) + Array(text.utf16)
        return units.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static let structure: [JSONConformanceCase] = [
        .init("y_array_empty", "[]"),
        .init("y_array_nested_mixed", #"[1, "a", true, false, null, {"b": [[]]}, -2.5]"#),
        .init("y_object_empty", "{}"),
        .init("y_object_basic", #"{"a":"b","c":{"d":[1,{}]}}"#),
        .init("y_object_duplicate_keys", #"{"a":1,"a":2}"#),
        .init("y_object_empty_key", #"{"":0}"#),
        .init("y_object_escaped_key", #"{"\u0041\n":1}"#),
        .init("y_whitespace_everywhere", " \t\r\n[ \t\r\n1 \t\r\n, \t\r\n{ \"a\" \t\r\n: \t\r\n2 } ] \t\r\n"),
        .init("y_top_level_number", "42"),
        .init("y_top_level_string", #""text""#),
        .init("y_top_level_true", "true"),
        .init("y_top_level_false", " false "),
        .init("y_top_level_null", "null"),
        .init("y_nesting_512_arrays", nested(512)),
        .init("y_nesting_512_objects", nested(512, open: #"{"a":"#, close: "}", inner: "1")),
        .init("n_empty", ""),
        .init("n_whitespace_only", " \n\t"),
        .init("n_array_unclosed", "[1"),
        .init("n_array_unclosed_after_comma", "[1,"),
        .init("n_array_extra_close", "[1]]"),
        .init("n_array_comma_only", "[,]"),
        .init("n_array_leading_comma", "[,1]"),
        .init("n_array_double_comma", "[1,,2]"),
        .init("n_array_two_trailing_commas", "[1,,]"),
        .init("n_array_missing_comma", "[1 2]"),
        .init("n_array_colon", "[1:2]"),
        .init("n_object_unclosed", #"{"a":1"#),
        .init("n_object_missing_colon", #"{"a" 1}"#),
        .init("n_object_missing_value", #"{"a":}"#),
        .init("n_object_unquoted_key", "{a:1}"),
        .init("n_object_single_quoted_key", "{'a':1}"),
        .init("n_object_number_key", "{1:1}"),
        .init("n_object_comma_only", "{,}"),
        .init("n_object_double_comma", #"{"a":1,,"b":2}"#),
        .init("n_object_comma_instead_of_colon", #"{"a",1}"#),
        .init("n_object_array_close", #"{"a":1]"#),
        .init("n_trailing_garbage", "[1]x"),
        .init("n_two_values", "[1] [2]"),
        .init("n_two_scalars", "1 2"),
        .init("n_comment_line", "// comment\n[1]"),
        .init("n_comment_block", "/* c */[1]"),
        .init("n_literal_truncated", "[tru]"),
        .init("n_literal_capitalised", "[True]"),
        .init("n_literal_at_end", "nul"),
        .init("n_literal_longer", "[nulll]"),
        .init("n_whitespace_form_feed", "\u{0C}[1]"),
        .init("n_whitespace_vertical_tab", "[1\u{0B}]"),
        .init("n_whitespace_no_break_space", "\u{A0}[1]"),
        .init("n_whitespace_line_separator", "[1\u{2028}]"),
        .init("n_nul_after_value", bytes: Array("[1]".utf8) + [0]),
        .init("n_nesting_513_arrays", nested(513)),
        .init("n_nesting_513_objects", nested(513, open: #"{"a":"#, close: "}", inner: "1")),
        .init("n_nesting_513_unclosed", String(repeating: "[", count: 513)),
        .init("n_nesting_100000_arrays", nested(100_000)),
        .init("i_trailing_comma_array", "[1,2,]", accepted: true),
        .init("i_trailing_comma_object", #"{"a":1,}"#, accepted: true),
        .init("i_trailing_comma_with_whitespace", "[1 , \n]", accepted: true),
    ]

    static let numbers: [JSONConformanceCase] = [
        .init("y_number_zero", "[0]"),
        .init("y_number_minus_zero", "[-0]"),
        .init("y_number_negative", "[-123]"),
        .init("y_number_fraction", "[1.5]"),
        .init("y_number_negative_fraction", "[-0.25]"),
        .init("y_number_exponent", "[1e2]"),
        .init("y_number_exponent_capital_plus", "[1E+2]"),
        .init("y_number_exponent_negative", "[1.25e-3]"),
        .init("y_number_zero_exponent", "[0e5]"),
        .init("y_number_int64_max", "[9223372036854775807]"),
        .init("y_number_int64_min", "[-9223372036854775808]"),
        .init("y_number_beyond_double_precision", "[9007199254740993]"),
        .init("y_number_beyond_int64", "[9223372036854775808]"),
        .init("y_number_many_digits", "[123456789012345678901234567890]"),
        .init("y_number_long_fraction", "[0.1000000000000000055511151231257827021181583404541015625]"),
        .init("y_number_double_max", "[1.7976931348623157e308]"),
        .init("y_number_subnormal", "[5e-324]"),
        .init("y_number_underflow", "[1e-400]"),
        .init("y_number_negative_underflow", "[-1e-400]"),
        .init("y_number_whole_double_text", "[1.7537442883351706e+18]"),
        .init("y_number_whole_fraction", "[1.0]"),
        // Whole doubles from 2^53 up: JSONDecoder reads them again as a Decimal (the fuzzer's first
        // finding was the first of these, read as an integer where JSONDecoder reads a double).
        .init("y_number_whole_double_long_fraction", "[1234567890123456789.01234567890]"),
        .init("y_number_whole_double_short_fraction", "[9007199254740993.5]"),
        .init("y_number_whole_double_wide_fraction", "[9007199254740993.000000001]"),
        .init("y_number_whole_double_trailing_zeros", "[9007199254740993000000000000000000000000000000e-30]"),
        .init("y_number_whole_double_int64_min", "[-9223372036854775808.0]"),
        .init("y_number_whole_double_39_digits", "[24567898123456789.0100000000000000000009]"),
        .init("y_number_whole_double_40_digits", "[24567898123456789.01000000000000000000001]"),
        .init("y_number_whole_double_dropped_digit", "[9007199254740993.00000000000000000000009]"),
        .init("y_number_whole_double_near_int64_max", "[9223372036854775295.0]"),
        .init("y_number_exponent_leading_zeros", "[1e007]"),
        .init("y_number_huge_exponent_of_zero", "[0e999999999999]"),
        .init("n_number_leading_zero", "[01]"),
        .init("n_number_negative_leading_zero", "[-01]"),
        .init("n_number_plus", "[+1]"),
        .init("n_number_dot_first", "[.5]"),
        .init("n_number_dot_last", "[1.]"),
        .init("n_number_dot_exponent", "[1.e2]"),
        .init("n_number_exponent_empty", "[1e]"),
        .init("n_number_exponent_sign_only", "[1e+]"),
        .init("n_number_minus_only", "[-]"),
        .init("n_number_minus_letter", "[-a]"),
        .init("n_number_minus_space", "[- 1]"),
        .init("n_number_hex", "[0x1]"),
        .init("n_number_nan", "[NaN]"),
        .init("n_number_infinity", "[-Infinity]"),
        .init("n_number_double_dot", "[1.2.3]"),
        .init("n_number_top_level_truncated", "-"),
        .init("n_number_beyond_double", "[1e400]"),
        .init("n_number_negative_beyond_double", "[-1e400]"),
        .init("n_number_many_digits_beyond_double", "[" + String(repeating: "9", count: 400) + "]"),
    ]

    static let strings: [JSONConformanceCase] = [
        .init("y_string_empty", #"[""]"#),
        .init("y_string_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
        .init("y_string_unicode_escape", #"["\u00e9\u00C9"]"#),
        .init("y_string_escaped_nul", #"["\u0000"]"#),
        .init("y_string_surrogate_pair", #"["\ud83d\ude00"]"#),
        .init("y_string_max_scalar", #"["\udbff\udfff"]"#),
        .init("y_string_noncharacter", #"["\uffff\ufffe"]"#),
        .init("y_string_raw_utf8", "[\"日本語 naïve 😀\"]"),
        .init("y_string_raw_delete", "[\"a\u{7F}b\"]"),
        .init("y_string_raw_line_separator", "[\"\u{2028}\u{2029}\"]"),
        .init("y_string_brackets", #"["[{\"]}"]"#),
        .init("y_string_long", "[\"" + String(repeating: "abc\\n", count: 10_000) + "\"]"),
        .init("n_string_unterminated", #"["abc"#),
        .init("n_string_unterminated_escape", #"["abc\"#),
        .init("n_string_single_quotes", "['a']"),
        .init("n_string_raw_tab", "[\"a\tb\"]"),
        .init("n_string_raw_newline", "[\"a\nb\"]"),
        .init("n_string_raw_nul", bytes: Array(#"["a"#.utf8) + [0] + Array(#""]"#.utf8)),
        .init("n_string_raw_unit_separator", "[\"\u{1F}\"]"),
        .init("n_string_escape_x", #"["\x41"]"#),
        .init("n_string_escape_capital_u", #"["\U0041"]"#),
        .init("n_string_escape_apostrophe", #"["\'"]"#),
        .init("n_string_escape_short", #"["\u12"]"#),
        .init("n_string_escape_not_hex", #"["\u12G4"]"#),
        .init("n_string_lone_high_surrogate", #"["\ud800"]"#),
        .init("n_string_lone_low_surrogate", #"["\udc00"]"#),
        .init("n_string_high_surrogate_then_text", #"["\ud800abc"]"#),
        .init("n_string_high_surrogate_then_ascii_escape", #"["\ud800\u0041"]"#),
        .init("n_string_two_high_surrogates", #"["\ud800\ud800"]"#),
        .init("n_string_surrogates_reversed", #"["\udc00\ud800"]"#),
        .init("n_string_high_surrogate_then_newline_escape", #"["\ud800\n"]"#),
        .init("n_utf8_invalid_byte", bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]),
        .init("n_utf8_invalid_byte_in_escaped_string", bytes: Array(#"["\n"#.utf8) + [0xFF, 0x22, 0x5D]),
        .init("n_utf8_overlong_slash", bytes: [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]),
        .init("n_utf8_encoded_surrogate", bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]),
        .init("n_utf8_truncated_sequence", bytes: [0x5B, 0x22, 0xE6, 0x97, 0x22, 0x5D]),
        .init("n_utf8_lone_continuation", bytes: [0x5B, 0x22, 0x80, 0x22, 0x5D]),
        .init("n_utf8_beyond_max_scalar", bytes: [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D]),
        .init("n_utf8_outside_string", bytes: [0x5B, 0xFF, 0x5D]),
        .init("n_byte_order_mark_only", bytes: [0xEF, 0xBB, 0xBF]),
        .init("n_byte_order_mark_twice", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x5B, 0x5D]),
        .init("i_byte_order_mark_utf8", bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8), accepted: true),
        .init(
            "i_utf16le_without_mark",
            bytes: utf16(#"["é"]"#, bigEndian: false, byteOrderMark: false),
            accepted: true
        ),
        .init("i_utf16be_with_mark", bytes: utf16(#"{"a":[1]}"#, bigEndian: true, byteOrderMark: true), accepted: true),
        .init("i_utf16le_malformed", bytes: utf16("[1,", bigEndian: false, byteOrderMark: true), accepted: false),
    ]

    static let all = structure + numbers + strings
}

@Suite struct JSONParserConformanceTests {
    @Test(arguments: JSONConformanceCorpus.all)
    func acceptsAndRejectsAsDocumentedAndAsJSONDecoderDoes(_ testCase: JSONConformanceCase) {
        let parsed = try? JSONValue(parsing: Data(testCase.bytes))
        #expect((parsed != nil) == testCase.accepted)
        // The sign of a negative zero is the one documented difference.
        let expected = JSONDecoderReference.value(of: testCase.bytes)
        #expect(parsed.map(JSONDecoderReference.zeroSignIgnored) == expected.map(JSONDecoderReference.zeroSignIgnored))
    }

    @Test func keepsTheSignOfEveryNegativeZero() throws {
        let value = try JSONValue(parsing: Data("[-0, -0.0, -0e5, -0e1, -0.00e1, -1e-400, 0e1]".utf8))
        #expect(value.arrayValue?.prefix(6).allSatisfy { $0.doubleValue?.sign == .minus && $0.intValue == nil } == true)
        #expect(value[6] == .int(0))
    }

    @Test func keepsNumbersAsJSONValueDefinesThem() throws {
        let value = try JSONValue(
            parsing: Data(
                #"[-0, 1.0, 1e2, 1e-400, -1e-400, 9007199254740993, 1.7537442883351706e+18, 9223372036854775808, 0.5, 1.0000000000000001]"#
                    .utf8
            )
        )
        #expect(
            value
                == [
                    .double(-0.0), .int(1), .int(100), .int(0), .double(-0.0), .int(9_007_199_254_740_993),
                    .int(1_753_744_288_335_170_600), .double(9_223_372_036_854_775_808), .double(0.5), .int(1),
                ]
        )
        #expect(value[0]?.doubleValue?.sign == .minus)
        #expect(value[4]?.doubleValue?.sign == .minus)
    }

    @Test func keepsTheFirstOfDuplicateKeysAsJSONDecoderDoes() throws {
        let text = Data(#"{"a":1,"b":{"c":true,"c":false},"a":2}"#.utf8)
        #expect(try JSONValue(parsing: text) == ["a": 1, "b": ["c": true]])
        #expect(try JSONValue(parsing: text) == JSONDecoder().decode(JSONValue.self, from: text))
    }

    @Test(arguments: [
        "{\"a\":1,\"a\":\"\u{0}raw\"}", #"{"a":1,"a":"\x"}"#, #"{"a":1,"a":["\ud800"]}"#, #"{"a":1,"a":1e400}"#,
        #"{"a":1,"a":2.}"#,
    ])
    func refusesMalformedValuesOfRepeatedKeysThatJSONDecoderSkips(text: String) throws {
        // JSONDecoder keeps the first "a" and never decodes the second value, so it accepts these.
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == ["a": 1])
        #expect(throws: DecodingError.self) { try JSONValue(parsing: Data(text.utf8)) }
    }

    @Test func decodesEscapesToTheCharactersTheyName() throws {
        let value = try JSONValue(parsing: Data(#"["\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00\u0000", "a\u0041b"]"#.utf8))
        #expect(value == ["\"\\/\u{8}\u{C}\n\r\t", "é😀\u{0}", "aAb"])
    }

    @Test(arguments: [
        ("[1,x]", "Unexpected character 'x' (0x78) at byte offset 3."),
        ("[1", "Unexpected end of input at byte offset 2."),
        ("[1] 2", "Unexpected content after the top-level value at byte offset 4."),
        ("[\"a\tb\"]", "Unescaped control character byte 0x09 in a string at byte offset 3."),
        (#"["\q"]"#, "Invalid escape sequence in a string at byte offset 2."),
        (#"[0, "\ud800"]"#, "Unpaired UTF-16 surrogate escape in a string at byte offset 5."),
        ("[1e400]", "Number at byte offset 1 is not representable as a Double."),
    ])
    func saysWhatIsWrongAndWhere(text: String, detail: String) {
        #expect {
            try JSONValue(parsing: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "The given data was not valid JSON."
                && context.underlyingError.map { String(describing: $0) } == detail
        }
    }

    @Test func saysWhereInvalidUTF8Starts() {
        #expect {
            try JSONValue(parsing: Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.underlyingError.map { String(describing: $0) }
                == "Invalid UTF-8 in a string starting at byte offset 2."
        }
    }

    @Test func refusesDeepNestingWithTheOffsetOfTheBracketThatCrossesTheLimit() {
        for bytes in [
            Array(String(repeating: "[", count: 600).utf8),
            JSONConformanceCorpus.utf16(
                String(repeating: "[", count: 600),
                bigEndian: false,
                byteOrderMark: false
            ),
        ] {
            #expect {
                try JSONValue(parsing: Data(bytes))
            } throws: { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return false }
                return context.debugDescription.hasPrefix("Too many nested arrays or objects: more than 512 levels")
            }
        }
    }

    @Test func agreesWithJSONDecoderOnRandomDocuments() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = JSONTreeGenerator(seed: seed)
        let encoder = JSONEncoder()
        for iteration in 0..<300 {
            let body = try encoder.encode(generator.value(depth: 5))
            let expected = try JSONDecoder().decode(JSONValue.self, from: body)
            #expect(
                try JSONValue(parsing: body) == expected,
                "seed \(seed) iteration \(iteration): \(String(decoding: body, as: UTF8.self))"
            )
        }
    }
}
