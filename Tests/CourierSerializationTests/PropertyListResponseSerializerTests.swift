import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct PropertyListResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    private static func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">\(body)</plist>
        """
    }

    private func serialize(
        _ data: Data?,
        status: Int = 200,
        contentType: String? = "application/x-plist"
    ) throws -> SerializedResponse<PropertyListValue> {
        PropertyListResponseSerializer().serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: data,
            request: nil
        )
    }

    @Test func parsesEveryKindOfValue() throws {
        let text = Self.xml(
            """
            <dict>
            <key>string</key><string>caf&#233; &amp; tea</string>
            <key>integer</key><integer>-42</integer>
            <key>real</key><real>2.5</real>
            <key>true</key><true/>
            <key>false</key><false/>
            <key>date</key><date>2001-01-01T00:01:00Z</date>
            <key>data</key><data>AAEC/w==</data>
            <key>array</key><array><integer>1</integer><string>two</string></array>
            <key>dict</key><dict/>
            </dict>
            """
        )
        let outcome = try serialize(Fixtures.body(text))
        #expect(outcome.error == nil)
        #expect(
            outcome.value
                == .dictionary([
                    "string": .string("café & tea"), "integer": .integer(-42), "real": .real(2.5), "true": .bool(true),
                    "false": .bool(false), "date": .date(Date(timeIntervalSinceReferenceDate: 60)),
                    "data": .data(Data([0x00, 0x01, 0x02, 0xFF])),
                    "array": .array([.integer(1), .string("two")]), "dict": .dictionary([:]),
                ])
        )
        let value = try #require(outcome.value)
        #expect(value["string"]?.stringValue == "café & tea")
        #expect(value["integer"]?.integerValue == -42)
        #expect(value["integer"]?.realValue == -42)
        #expect(value["real"]?.realValue == 2.5)
        #expect(value["true"]?.boolValue == true)
        #expect(value["date"]?.dateValue == Date(timeIntervalSinceReferenceDate: 60))
        #expect(value["data"]?.dataValue == Data([0x00, 0x01, 0x02, 0xFF]))
        #expect(value["array"]?[1]?.stringValue == "two")
        #expect(value["array"]?[2] == nil)
        #expect(value["array"]?.arrayValue?.count == 2)
        #expect(value["dict"]?.dictionaryValue == [:])
        #expect(value["missing"] == nil)
    }

    @Test func parsesBinaryPropertyLists() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(["numbers": [1, 2, 3]])
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try serialize(data).value == .dictionary(["numbers": .array([.integer(1), .integer(2), .integer(3)])]))
    }

    @Test func foldsWholeRealsIntoIntegers() throws {
        #expect(
            try serialize(Fixtures.body(Self.xml("<array><real>1.0</real></array>"))).value == .array([.integer(1)])
        )
    }

    @Test func returnsNothingForAMissingOrEmptyBody() throws {
        for data in [nil, Data()] {
            let outcome = try serialize(data, status: 204, contentType: nil)
            #expect(outcome.value == nil)
            #expect(outcome.error == nil)
        }
    }

    @Test func rejectsAnUnparsableBody() throws {
        let text = Self.xml("<integer>1</integer")
        let outcome = try serialize(Fixtures.body(text))
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidPropertyList)
        #expect(error.urlErrorCode == 3840)
        #expect(error.localizedDescription == "The data couldn’t be read because it isn’t in the correct format.")
        #expect(
            error.failureReason
                == "Encountered unexpected character < on line 1 while looking for close tag for integer"
        )
        #expect(error.data == Fixtures.body(text))
        #expect(Fixtures.chain(error) == ["invalidPropertyList", "DecodingError"])
    }

    @Test(arguments: [
        "<plist version=\"1.0\"><dict><key>a</key></dict></plist>",
        "<plist><array><integer>x</integer></array></plist>",
        "{ a = ; }", "bplist00\u{0}\u{1}",
    ])
    func rejectsMalformedInput(text: String) throws {
        let outcome = try serialize(Fixtures.body(text))
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidPropertyList)
    }

    @Test func parsesDespiteAStatusFailureButNotDespiteAContentTypeFailure() throws {
        let body = Fixtures.body(Self.xml("<string>gone</string>"))
        let failed = try serialize(body, status: 410)
        #expect(failed.value == .string("gone"))
        #expect(failed.error?.localizedDescription == "Request failed: gone (410)")
        let wrongType = try serialize(body, contentType: "application/xml")
        #expect(wrongType.value == nil)
        #expect(wrongType.error?.localizedDescription == "Request failed: unacceptable content-type: application/xml")
        let broken = try serialize(Fixtures.body(Self.xml("<string>")), status: 500)
        #expect(Fixtures.chain(broken.error) == ["invalidPropertyList", "unacceptableStatusCode", "DecodingError"])
    }

    /// A binary property list of `count` one-element arrays, each holding the next; the last holds
    /// `lastReference` (nothing when `nil`).
    private static func binaryChain(count: Int, lastReference: Int? = nil) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<count {
            offsets.append(bytes.count)
            let reference = index == count - 1 ? lastReference : index + 1
            if let reference {
                bytes += [0xA1, UInt8(reference >> 8), UInt8(reference & 0xFF)]
            } else {
                bytes.append(0xA0)
            }
        }
        let offsetTable = bytes.count
        for offset in offsets {
            bytes += [UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
        }
        func bigEndian(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(count) + bigEndian(0) + bigEndian(offsetTable)
        return Data(bytes)
    }

    private static func nested(_ depth: Int) -> PropertyListValue {
        var value = PropertyListValue.array([])
        for _ in 1..<depth { value = .array([value]) }
        return value
    }

    @Test func parsesHandBuiltBinaryChains() throws {
        #expect(try serialize(Self.binaryChain(count: 3)).value == Self.nested(3))
        #expect(try serialize(Self.binaryChain(count: 512)).value == Self.nested(512))
    }

    @Test(arguments: [513, 10_000, 60_000])
    func refusesDeepBinaryNestingWithoutCrashing(depth: Int) throws {
        let outcome = try serialize(Self.binaryChain(count: depth))
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidPropertyList)
        #expect(outcome.error?.failureReason == "Too many nested arrays or dictionaries: more than 512 levels.")
        #expect(outcome.error?.underlying == nil)
    }

    @Test(arguments: [(1, 0), (3, 0), (3, 2), (5, 1)])
    func refusesBinaryReferenceCyclesWithoutCrashing(count: Int, target: Int) throws {
        let outcome = try serialize(Self.binaryChain(count: count, lastReference: target))
        #expect(outcome.value == nil)
        #expect(outcome.error?.failureReason == "The object references form a cycle.")
    }

    @Test func refusesBinaryReferencesPastTheObjectTable() throws {
        let outcome = try serialize(Self.binaryChain(count: 2, lastReference: 9))
        #expect(outcome.error?.code == .invalidPropertyList)
        #expect(outcome.error?.failureReason == "Invalid object reference.")
    }

    @Test func acceptsSharedBinaryObjects() throws {
        // Every element of the top array is the same string object: shared, not cyclic.
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(Array(repeating: "same", count: 600))
        #expect(try serialize(data).value == .array(Array(repeating: .string("same"), count: 600)))
    }

    @Test(arguments: [513, 10_000, 100_000])
    func refusesDeepXMLNestingWithoutCrashing(depth: Int) throws {
        let closed = Self.xml(String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth))
        let outcome = try serialize(Fixtures.body(closed))
        #expect(outcome.value == nil)
        #expect(outcome.error?.failureReason == "Too many nested arrays or dictionaries: more than 512 levels.")
        let open = Self.xml(String(repeating: "<dict><key>k</key>", count: depth))
        #expect(try serialize(Fixtures.body(open)).error?.code == .invalidPropertyList)
    }

    @Test func countsOnlyRealContainerElementsTowardsTheLimit() throws {
        let deep = String(repeating: "<array>", count: 512) + String(repeating: "</array>", count: 512)
        #expect(try serialize(Fixtures.body(Self.xml(deep))).value == Self.nested(512))
        let selfClosing = Self.xml("<array>" + String(repeating: "<array/>", count: 600) + "</array>")
        #expect(try serialize(Fixtures.body(selfClosing)).value == .array(Array(repeating: .array([]), count: 600)))
        let commented = Self.xml("<array><!-- " + String(repeating: "<array>", count: 600) + " --></array>")
        #expect(try serialize(Fixtures.body(commented)).value == .array([]))
    }
}
