import Courier

// Builds the default stack, so that the probe really links the libcurl transport and the OpenSSL
// trust hook it names, and shows that `import Courier` starts and stops without a network.
let client = try CourierClient()
print(type(of: client.transport))
await client.shutdown()
