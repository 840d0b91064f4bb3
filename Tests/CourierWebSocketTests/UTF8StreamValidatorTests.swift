import Testing

@testable import CourierWebSocket

@Suite struct UTF8StreamValidatorTests {
    /// The index of the first byte refused when the bytes are fed one at a time, or `nil`.
    private func firstRefusedByte(_ bytes: [UInt8]) -> Int? {
        var validator = UTF8StreamValidator()
        for (index, byte) in bytes.enumerated() where !validator.validate([byte]) {
            return index
        }
        return nil
    }

    @Test func acceptsValidTextSplitAnywhere() {
        let text = Array("Hello-µ@ßöäüàá-UTF-8!! κόσμε 𝄞 \u{10FFFF} \u{FFFD}".utf8)
        for split in 0...text.count {
            var validator = UTF8StreamValidator()
            let prefixValid = validator.validate(text[..<split])
            let restValid = validator.validate(text[split...])
            #expect(prefixValid && restValid)
            #expect(validator.isComplete)
        }
    }

    @Test func reportsAnUnfinishedCharacter() {
        var validator = UTF8StreamValidator()
        let prefixValid = validator.validate([0xF0, 0x9D, 0x84])
        #expect(prefixValid)
        #expect(!validator.isComplete)
        let restValid = validator.validate([0x9E])
        #expect(restValid)
        #expect(validator.isComplete)
    }

    // Autobahn 6.4.x: the connection must fail at the first byte that cannot start or continue a character.
    @Test func failsAtTheFirstImpossibleByte() {
        let kosme = Array("κόσμε".utf8)
        #expect(firstRefusedByte(kosme + [0xED, 0xA0, 0x80] + Array("edited".utf8)) == kosme.count + 1)
        #expect(firstRefusedByte(kosme + [0xF4, 0x90, 0x80, 0x80]) == kosme.count + 1)
        #expect(firstRefusedByte([0x80]) == 0)
        #expect(firstRefusedByte([0xC0, 0xAF]) == 0)  // overlong "/"
        #expect(firstRefusedByte([0xC1, 0xBF]) == 0)
        #expect(firstRefusedByte([0xE0, 0x80, 0xAF]) == 1)  // overlong three-byte
        #expect(firstRefusedByte([0xF0, 0x80, 0x80, 0xAF]) == 1)  // overlong four-byte
        #expect(firstRefusedByte([0xF5, 0x80]) == 0)
        #expect(firstRefusedByte([0xFE]) == 0)
        #expect(firstRefusedByte([0xFF]) == 0)
        #expect(firstRefusedByte([0xC2, 0x41]) == 1)  // a character cut short by ASCII
        #expect(firstRefusedByte([0xED, 0x9F, 0xBF]) == nil)  // U+D7FF, just below the surrogates
        #expect(firstRefusedByte([0xEE, 0x80, 0x80]) == nil)  // U+E000, just above
    }

    @Test func staysFailed() {
        var validator = UTF8StreamValidator()
        let invalid = validator.validate([0xFF])
        let afterwards = validator.validate(Array("fine".utf8))
        #expect(!invalid && !afterwards)
        #expect(!validator.isComplete)
        #expect(validator.hasFailed)
    }

    @Test func agreesWithTheStandardLibraryOnEveryTwoBytePrefix() {
        for first in 0...0xFF {
            for second in stride(from: 0, through: 0xFF, by: 7) {
                let bytes: [UInt8] = [UInt8(first), UInt8(second)]
                var validator = UTF8StreamValidator()
                let ours = validator.validate(bytes) && validator.isComplete
                #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            }
        }
    }
}
