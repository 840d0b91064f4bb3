import CourierWebSocket
import Testing

@Suite struct WebSocketConnectionStateTests {
    @Test func clientInitiatedClose() {
        var state = WebSocketConnectionState()
        #expect(state.canSendMessages)
        let frame = state.close(WebSocketClose(code: .normalClosure, reason: "done"))
        #expect(frame == .close(WebSocketClose(code: .normalClosure, reason: "done")))
        #expect(state.phase == .closing)
        #expect(!state.canSendMessages && !state.isDone)
        #expect(state.close(WebSocketClose(code: .goingAway)) == nil)  // one close only
        #expect(state.receivedClose(WebSocketClose(code: .normalClosure)) == nil)  // nothing to echo
        #expect(state.isDone)
        #expect(state.closeStatus == WebSocketClose(code: .normalClosure))
    }

    @Test func serverInitiatedCloseIsEchoedWithItsCode() {
        var state = WebSocketConnectionState()
        let echo = state.receivedClose(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "bye"))
        #expect(echo == .close(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001))))
        #expect(state.isDone)
        #expect(state.closeStatus == WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "bye"))
        #expect(state.close(WebSocketClose(code: .normalClosure)) == nil)
        #expect(state.receivedClose(WebSocketClose(code: .normalClosure)) == nil)
    }

    @Test func anEmptyCloseIsEchoedEmptyAndReportedAs1005() {
        var state = WebSocketConnectionState()
        #expect(state.receivedClose(WebSocketClose(code: nil)) == WebSocketFrame(opcode: .close, payload: []))
        #expect(state.closeStatus?.code == .noStatusReceived)
    }

    @Test func aConnectionThatEndsWithoutACloseIsAbnormal() {
        var state = WebSocketConnectionState()
        #expect(state.closeStatus == nil)
        state.connectionEnded()
        #expect(state.isDone)
        #expect(state.closeStatus?.code == .abnormalClosure)
    }

    @Test func failingSendsTheErrorsCode() {
        var state = WebSocketConnectionState()
        let frame = state.fail(.protocolViolation(.invalidFramePayloadData, reason: "bad UTF-8"))
        #expect(frame?.payload == [0x03, 0xEF])
        #expect(state.isDone)
        #expect(state.receivedPing([1]) == nil)
        #expect(state.fail(.closeTimedOut) == nil)

        var tooBig = WebSocketConnectionState()
        #expect(tooBig.fail(.frameTooBig(length: 10, limit: 1))?.payload == [0x03, 0xF1])

        var closing = WebSocketConnectionState()
        _ = closing.close(WebSocketClose(code: .normalClosure))
        #expect(closing.fail(.protocolViolation(.protocolError, reason: "late")) == nil)
        #expect(closing.isDone)

        var timedOut = WebSocketConnectionState()
        #expect(timedOut.fail(.closeTimedOut) == nil)
        #expect(timedOut.isDone)
    }

    @Test func answersPingsWhileOpenOnly() {
        var state = WebSocketConnectionState()
        #expect(state.receivedPing([1, 2, 3]) == .pong([1, 2, 3]))
        _ = state.close(WebSocketClose(code: .normalClosure))
        #expect(state.receivedPing([1]) == nil)
    }

    @Test func matchesPongsToTheOutstandingPing() {
        var state = WebSocketConnectionState()
        let unsolicited = state.receivedPong([9])
        #expect(!unsolicited)
        #expect(state.ping([5]) == .ping([5]))
        #expect(state.outstandingPing == [5])
        let wrongPayload = state.receivedPong([6])
        let answer = state.receivedPong([5])
        #expect(!wrongPayload && answer)
        #expect(state.outstandingPing == nil)
        _ = state.close(WebSocketClose(code: .normalClosure))
        #expect(state.ping([1]) == nil)
    }
}
