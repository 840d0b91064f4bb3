import CourierReachability
import CourierReachabilityNetlink

// Uses a symbol of the module so that the linker keeps it; the monitor is never started.
print(NetlinkReachabilityMonitor(target: .defaultRoute).status)
