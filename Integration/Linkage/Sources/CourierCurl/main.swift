import CourierCurl

// Uses a symbol of the module so that the linker keeps it: the positive control of the check.
print(CurlTransport.Configuration().maxConnectionsPerHost)
