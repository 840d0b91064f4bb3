import CourierTesting
import CourierTestingExpectations
import Testing  // the source-location macros that the overlay's default arguments expand

// Uses symbols of the module so that the linker keeps them; nothing runs inside a test, so no
// issue is recorded.
let fallback: @Sendable () -> Int = { unimplemented("probe", placeholder: 0) }
print(type(of: fallback), MockTransport.failingTestOnUnstubbedRequest())
