import Testing

@testable import CourierCurl

@Suite struct ReceiveBufferReserveTests {
    @Test func theReserveHoldsABufferPerConcurrentTransferWithinItsBudget() {
        let defaultBuffer = (256 << 10) + 1
        #expect(ReceiveBufferReserve.count(bufferSize: defaultBuffer, concurrentTransfers: 32) == 32)
        #expect(ReceiveBufferReserve.count(bufferSize: defaultBuffer, concurrentTransfers: 8) == 8)
        #expect(ReceiveBufferReserve.count(bufferSize: (16 << 10) + 1, concurrentTransfers: 32) == 32)
        #expect(ReceiveBufferReserve.count(bufferSize: (16 << 10) + 1, concurrentTransfers: 10_000) == 1_023)
    }

    @Test func aBufferOverTheBudgetIsNotReserved() {
        #expect(ReceiveBufferReserve.count(bufferSize: (10 << 20) + 1, concurrentTransfers: 32) == 1)
        #expect(ReceiveBufferReserve.count(bufferSize: (17 << 20), concurrentTransfers: 32) == 0)
        #expect(ReceiveBufferReserve.count(bufferSize: 0, concurrentTransfers: 32) == 0)
        #expect(ReceiveBufferReserve.count(bufferSize: 4_096, concurrentTransfers: 0) == 0)
    }
}
