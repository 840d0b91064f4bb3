import CourierHTTP
import FoundationEssentials
import Testing

@testable import CourierSerialization

@Suite struct StringResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    private func serialize(
        _ bytes: [UInt8],
        contentType: String?,
        status: Int = 200,
        serializer: StringResponseSerializer = StringResponseSerializer()
    ) throws -> SerializedResponse<String> {
        serializer.serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: Data(bytes),
            request: nil
        )
    }

    @Test func decodesUTF8WhenNoCharsetIsNamed() throws {
        let outcome = try serialize(Array("café ☕︎ 𝄞".utf8), contentType: "text/plain")
        #expect(outcome.value == "café ☕︎ 𝄞")
        #expect(outcome.error == nil)
    }

    @Test func decodesLatin1ByteForScalar() throws {
        let outcome = try serialize(
            [0x63, 0x61, 0x66, 0xE9, 0x00, 0x80, 0xFF],
            contentType: "text/plain; charset=ISO-8859-1"
        )
        #expect(outcome.value == "caf\u{E9}\u{0}\u{80}\u{FF}")
        #expect(outcome.value?.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0xE9, 0x00, 0x80, 0xFF])
    }

    @Test func readsAQuotedCharset() throws {
        let outcome = try serialize([0xE9], contentType: #"text/plain; charset="latin1""#)
        #expect(outcome.value == "é")
    }

    @Test func rejectsUnsupportedCharsetByName() throws {
        let outcome = try serialize(Array("abc".utf8), contentType: "text/plain; charset=windows-1252")
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .unsupportedCharset)
        #expect(error.urlErrorCode == 0)
        #expect(error.domain == .response)
        #expect(error.localizedDescription == #"Unsupported charset "windows-1252""#)
        #expect(
            error.failureReason
                == "Supported charsets: UTF-8, UTF-16, UTF-16BE, UTF-16LE, UTF-32, UTF-32BE, UTF-32LE, US-ASCII, ISO-8859-1"
        )
        #expect(error.failingURL == Fixtures.responseURL)
        #expect(error.underlying == nil)
    }

    @Test func rejectsInvalidUTF8WithoutReplacingIt() throws {
        let outcome = try serialize([0x61, 0xFF, 0x62], contentType: "text/plain; charset=utf-8")
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidStringEncoding)
        #expect(error.urlErrorCode == 0)
        #expect(error.localizedDescription == "The response body is not valid UTF-8")
        #expect(error.failureReason == "invalid UTF-8 at byte offset 1")
        #expect(error.data == Data([0x61, 0xFF, 0x62]))
        let cause = try #require(error.underlying as? Charset.InvalidBytes)
        #expect(cause == Charset.InvalidBytes(charset: .utf8, byteOffset: 1, reason: "invalid UTF-8 at byte offset 1"))
    }

    @Test(arguments: [
        ([0xC3] as [UInt8], 0),  // truncated two-byte sequence
        ([0x61, 0x62, 0xE2, 0x82], 2),  // truncated three-byte sequence
        ([0xED, 0xA0, 0x80], 0),  // an encoded surrogate
        ([0xC0, 0xAF], 0),  // an overlong encoding
        ([0xEF, 0xBB, 0xBF, 0x41, 0xF5, 0x80, 0x80, 0x80], 4),  // past U+10FFFF, after a BOM
    ])
    func locatesTheFirstInvalidUTF8Byte(bytes: [UInt8], offset: Int) throws {
        #expect(
            throws: Charset.InvalidBytes(
                charset: .utf8,
                byteOffset: offset,
                reason: "invalid UTF-8 at byte offset \(offset)"
            )
        ) {
            try Charset.utf8.decode(Data(bytes))
        }
    }

    @Test func dropsAUTF8ByteOrderMark() throws {
        #expect(try Charset.utf8.decode(Data([0xEF, 0xBB, 0xBF, 0x41])) == "A")
        #expect(try Charset.utf8.decode(Data([0xEF, 0xBB, 0xBF])) == "")
    }

    @Test func decodesUTF16ByByteOrderMark() throws {
        #expect(try Charset.utf16.decode(Data([0xFE, 0xFF, 0x00, 0x41, 0xD8, 0x34, 0xDD, 0x1E])) == "A𝄞")
        #expect(try Charset.utf16.decode(Data([0xFF, 0xFE, 0x41, 0x00, 0x34, 0xD8, 0x1E, 0xDD])) == "A𝄞")
        // RFC 2781 §4.3: without a BOM, big-endian.
        #expect(try Charset.utf16.decode(Data([0x00, 0x41, 0x00, 0xE9])) == "Aé")
        #expect(try Charset.utf16.decode(Data()) == "")
    }

    @Test func keepsALeadingZeroWidthNoBreakSpaceInExplicitByteOrders() throws {
        #expect(try Charset.utf16LittleEndian.decode(Data([0xFF, 0xFE, 0x41, 0x00])) == "\u{FEFF}A")
        #expect(try Charset.utf16BigEndian.decode(Data([0xFE, 0xFF, 0x00, 0x41])) == "\u{FEFF}A")
        #expect(
            try Charset.utf32BigEndian.decode(Data([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x41])) == "\u{FEFF}A"
        )
    }

    @Test func rejectsAnOddNumberOfUTF16Bytes() throws {
        let outcome = try serialize([0x00, 0x41, 0x00, 0x42, 0x00], contentType: "text/plain; charset=utf-16be")
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidStringEncoding)
        #expect(outcome.error?.localizedDescription == "The response body is not valid UTF-16BE")
        #expect(outcome.error?.failureReason == "5 bytes is not a whole number of UTF-16 code units")
        #expect((outcome.error?.underlying as? Charset.InvalidBytes)?.byteOffset == 5)
    }

    @Test func rejectsALoneUTF16Surrogate() throws {
        #expect(throws: Charset.InvalidBytes(charset: .utf16, byteOffset: 4, reason: "invalid UTF-16 at byte offset 4"))
        {
            try Charset.utf16.decode(Data([0xFE, 0xFF, 0x00, 0x41, 0xD8, 0x00, 0x00, 0x42]))
        }
        #expect(
            throws: Charset.InvalidBytes(
                charset: .utf16LittleEndian,
                byteOffset: 0,
                reason: "invalid UTF-16LE at byte offset 0"
            )
        ) {
            try Charset.utf16LittleEndian.decode(Data([0x00, 0xDC]))
        }
    }

    @Test func decodesUTF32() throws {
        #expect(try Charset.utf32.decode(Data([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x01, 0xD1, 0x1E])) == "𝄞")
        #expect(try Charset.utf32.decode(Data([0xFF, 0xFE, 0x00, 0x00, 0x1E, 0xD1, 0x01, 0x00])) == "𝄞")
        #expect(try Charset.utf32.decode(Data([0x00, 0x00, 0x00, 0x41])) == "A")
        #expect(try Charset.utf32LittleEndian.decode(Data([0x41, 0x00, 0x00, 0x00])) == "A")
        #expect(
            throws: Charset.InvalidBytes(
                charset: .utf32,
                byteOffset: 7,
                reason: "7 bytes is not a whole number of UTF-32 code units"
            )
        ) { try Charset.utf32.decode(Data(count: 7)) }
        #expect(
            throws: Charset.InvalidBytes(
                charset: .utf32BigEndian,
                byteOffset: 4,
                reason: "invalid UTF-32BE at byte offset 4"
            )
        ) {
            try Charset.utf32BigEndian.decode(Data([0x00, 0x00, 0x00, 0x41, 0x00, 0x11, 0x00, 0x00]))
        }
        #expect(throws: Charset.InvalidBytes.self) { try Charset.utf32.decode(Data([0x00, 0x00, 0xD8, 0x00])) }
    }

    @Test func rejectsBytesAboveASCII() throws {
        #expect(try Charset.usASCII.decode(Data("plain\t\n".utf8)) == "plain\t\n")
        #expect(
            throws: Charset.InvalidBytes(
                charset: .usASCII,
                byteOffset: 3,
                reason: "byte 0xE9 at byte offset 3 is not US-ASCII"
            )
        ) {
            try Charset.usASCII.decode(Data([0x63, 0x61, 0x66, 0xE9]))
        }
    }

    @Test(arguments: [
        ("utf-8", Charset.utf8), ("UTF8", .utf8), (" utf-8 ", .utf8),
        ("utf-16", .utf16), ("UTF16", .utf16), ("utf-16be", .utf16BigEndian), ("utf-16le", .utf16LittleEndian),
        ("utf-32", .utf32), ("utf-32be", .utf32BigEndian), ("UTF-32LE", .utf32LittleEndian),
        ("us-ascii", .usASCII), ("ascii", .usASCII), ("ANSI_X3.4-1968", .usASCII), ("csASCII", .usASCII),
        ("iso-8859-1", .isoLatin1), ("ISO_8859-1", .isoLatin1), ("iso_8859-1:1987", .isoLatin1),
        ("latin1", .isoLatin1), ("l1", .isoLatin1), ("cp819", .isoLatin1), ("iso8859-1", .isoLatin1),
    ])
    func recognisesCharsetAliases(name: String, charset: Charset) {
        #expect(Charset(name: name) == charset)
    }

    @Test(arguments: ["windows-1252", "shift_jis", "utf-7", "", "utf 8", "iso-8859-15", "ucs-2"])
    func refusesOtherCharsets(name: String) {
        #expect(Charset(name: name) == nil)
    }

    @Test func overridesTheCharsetOfTheResponse() throws {
        let serializer = StringResponseSerializer(encoding: .isoLatin1)
        let outcome = try serialize([0xE9], contentType: "text/plain; charset=utf-8", serializer: serializer)
        #expect(outcome.value == "é")
        let unknown = try serialize([0xE9], contentType: "text/plain; charset=klingon", serializer: serializer)
        #expect(unknown.value == "é")
        #expect(unknown.error == nil)
    }

    @Test func returnsTheEmptyStringForAnEmptyBody() throws {
        #expect(try serialize([], contentType: nil).value == "")
        let missing = StringResponseSerializer().serializedResponse(response: nil, data: nil, request: nil)
        #expect(missing.value == "")
        #expect(missing.error == nil)
        let unknownCharset = try serialize([], contentType: "text/plain; charset=klingon", status: 204)
        #expect(unknownCharset.value == "")
        #expect(unknownCharset.error == nil)
    }

    @Test func decodesDespiteAStatusFailureButNotDespiteAContentTypeFailure() throws {
        let failed = try serialize(Array("gone".utf8), contentType: "text/plain", status: 410)
        #expect(failed.value == "gone")
        #expect(failed.error?.localizedDescription == "Request failed: gone (410)")

        let serializer = StringResponseSerializer(validator: ResponseValidator(acceptableContentTypes: ["text/plain"]))
        let wrongType = try serialize(Array("<p>".utf8), contentType: "text/html", serializer: serializer)
        #expect(wrongType.value == nil)
        #expect(wrongType.error?.code == .unacceptableContentType)
    }

    @Test func chainsTheStatusErrorUnderADecodingFailure() throws {
        let outcome = try serialize([0xFF], contentType: "text/plain", status: 500)
        #expect(Fixtures.chain(outcome.error) == ["invalidStringEncoding", "unacceptableStatusCode", "InvalidBytes"])
        #expect(throws: SerializationError.self) {
            try StringResponseSerializer().serialize(response: try Fixtures.response(500), data: Data("x".utf8))
        }
    }
}
