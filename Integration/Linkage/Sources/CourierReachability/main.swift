import CourierReachability

// Uses a symbol of the module so that the linker keeps it: the interface alone, no monitor.
print(ReachabilityStatus.reachableViaWiFi.isReachable)
