import CourierReachability
import CourierReachabilityNetlink
import Foundation
import Testing

/// The sysfs rules over a fake `/sys/class/net` in a temporary folder.
@Suite struct SysfsInterfaceClassifierTests {
    /// One interface folder: its files (name → contents) and sub-folders.
    struct FakeInterface {
        var name: String
        var files: [String: String] = [:]
        var folders: [String] = []
    }

    func classify(
        _ interface: FakeInterface,
        hardwareType: UInt16 = 1,
        linkKind: String? = nil
    ) throws -> InterfaceClassification {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sysfs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent(interface.name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, contents) in interface.files {
            try Data(contents.utf8).write(to: folder.appendingPathComponent(file))
        }
        for sub in interface.folders {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        return SysfsInterfaceClassifier(root: root.path).classify(
            InterfaceDescriptor(index: 2, name: interface.name, hardwareType: hardwareType, linkKind: linkKind)
        )
    }

    @Test func loopbackByHardwareType() throws {
        #expect(try classify(FakeInterface(name: "lo"), hardwareType: 772) == InterfaceClassification(kind: .loopback))
    }

    @Test func wifiByDevtypeOrWirelessFolder() throws {
        let byDevtype = FakeInterface(name: "wlp2s0", files: ["uevent": "INTERFACE=wlp2s0\nDEVTYPE=wlan\nIFINDEX=3\n"])
        #expect(try classify(byDevtype).kind == .wifi)
        let byFolder = FakeInterface(
            name: "wlan0",
            files: ["uevent": "INTERFACE=wlan0\n"],
            folders: ["wireless", "device"]
        )
        #expect(try classify(byFolder).kind == .wifi)
    }

    @Test func cellularByDevtypeOrRawIPOrPPP() throws {
        let byDevtype = FakeInterface(name: "wwp0s20", files: ["uevent": "DEVTYPE=wwan\n"], folders: ["device"])
        #expect(try classify(byDevtype).kind == .cellular)
        #expect(try classify(FakeInterface(name: "rmnet0"), hardwareType: 519).kind == .cellular)
        #expect(try classify(FakeInterface(name: "ppp0"), hardwareType: 512).kind == .cellular)
    }

    @Test func tunnelsAreVirtualPrivateNetworks() throws {
        let vpn = InterfaceClassification(kind: .virtual, isVirtualPrivateNetwork: true)
        #expect(try classify(FakeInterface(name: "tun0", files: ["tun_flags": "0x1001\n"]), hardwareType: 65534) == vpn)
        #expect(try classify(FakeInterface(name: "wg0"), hardwareType: 65534, linkKind: "wireguard") == vpn)
        #expect(
            try classify(FakeInterface(name: "wg1", files: ["uevent": "DEVTYPE=wireguard\n"]), hardwareType: 65534)
                == vpn
        )
    }

    @Test func ethernetIsWiredOnlyWithADevice() throws {
        #expect(try classify(FakeInterface(name: "enp3s0", folders: ["device"])).kind == .wired)
        #expect(try classify(FakeInterface(name: "veth0"), linkKind: "veth").kind == .virtual)
        #expect(try classify(FakeInterface(name: "br0", folders: ["bridge"]), linkKind: "bridge").kind == .virtual)
    }

    @Test func aVethNamedLikeAModemIsNotCellular() throws {
        #expect(
            try classify(FakeInterface(name: "wwan0", files: ["uevent": "INTERFACE=wwan0\n"]), linkKind: "veth").kind
                == .virtual
        )
    }

    @Test func unknownHardwareIsOther() throws {
        #expect(try classify(FakeInterface(name: "can0"), hardwareType: 280).kind == .other)
        #expect(try classify(FakeInterface(name: "missing-folder-is-fine"), hardwareType: 280).kind == .other)
    }
}
