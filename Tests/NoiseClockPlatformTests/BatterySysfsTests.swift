import Foundation
import Logging
import NoiseClockCore
import Testing
@testable import NoiseClockPlatform

/// Each test writes its own fake `/sys/class/power_supply` tree of real files in a temp directory.
@Suite struct BatterySysfsTests {
    /// A power-supply tree under a fresh temporary directory, removed when the test ends.
    final class FakeTree {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-battery-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        var path: String { root.path }

        /// Writes `supply/attribute` files; sysfs attribute values end in a newline.
        func supply(_ name: String, _ attributes: [String: String]) throws {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (attribute, value) in attributes {
                try Data((value + "\n").utf8).write(to: directory.appendingPathComponent(attribute))
            }
        }

        func remove(_ name: String, _ attribute: String) throws {
            try FileManager.default.removeItem(at: root.appendingPathComponent(name).appendingPathComponent(attribute))
        }
    }

    /// A reader of `tree` and what it logs (to check problems are logged exactly once).
    static func reader(_ tree: FakeTree) -> (SysfsBattery, LogCapture) {
        let log = LogCapture()
        return (SysfsBattery(path: tree.path, logger: log.logger(label: "test.battery")), log)
    }

    static let mains = ["type": "Mains", "online": "1"]

    @Test func readsCapacityAndStatus() throws {
        let tree = try FakeTree()
        try tree.supply("AC", Self.mains)
        try tree.supply("BAT0", ["type": "Battery", "present": "1", "capacity": "87", "status": "Charging"])
        var (battery, log) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 87, status: .charging))
        #expect(battery.read().json.serialized == #"{"present":true,"level":87,"charging":true,"status":"charging","color":"green"}"#)
        #expect(log.messages.isEmpty)
    }

    @Test(arguments: [
        ("Charging", BatteryReading.Status.charging), ("Discharging", .discharging), ("Full", .full),
        ("Not charging", .notCharging), ("Unknown", .notCharging),
    ])
    func mapsStatus(text: String, status: BatteryReading.Status) throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "capacity": "50", "status": text])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 50, status: status))
    }

    @Test func fallsBackToEnergy() throws {
        let tree = try FakeTree()
        try tree.supply("BAT1", ["type": "Battery", "energy_now": "31200000", "energy_full": "48000000", "status": "Discharging"])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 65, status: .discharging))
    }

    @Test func fallsBackToCharge() throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "charge_now": "995", "charge_full": "1000", "status": "Full"])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 100, status: .full))
    }

    @Test func mainsOnlyIsNotPresent() throws {
        let tree = try FakeTree()
        try tree.supply("AC", Self.mains)
        try tree.supply("ucsi-source-psy-USBC000:001", ["type": "USB", "online": "0"])
        var (battery, log) = Self.reader(tree)
        #expect(battery.read() == .absent)
        #expect(battery.read().json.serialized == #"{"present":false,"status":"ac"}"#)
        #expect(log.messages.isEmpty)
    }

    @Test func emptyTreeIsNotPresent() throws {
        let tree = try FakeTree()
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == .absent)
    }

    @Test func takesTheFirstBatteryByNameSkippingPeripheralsAndEmptyBays() throws {
        let tree = try FakeTree()
        try tree.supply("BAT1", ["type": "Battery", "capacity": "11", "status": "Discharging"])
        try tree.supply("BAT0", ["type": "Battery", "present": "0", "status": "Unknown"])
        try tree.supply("AC", Self.mains)
        try tree.supply("ACMOUSE", ["type": "Battery", "scope": "Device", "capacity": "5", "status": "Discharging"])
        try tree.supply("BAT2", ["type": "Battery", "capacity": "99", "status": "Full"])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 11, status: .discharging))
    }

    @Test func seesChangesOnTheNextRead() throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "capacity": "40", "status": "Discharging"])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == BatteryReading(level: 40, status: .discharging))
        try tree.supply("BAT0", ["capacity": "41", "status": "Charging"])
        #expect(battery.read() == BatteryReading(level: 41, status: .charging))
    }

    @Test(arguments: [
        ["type": "Battery", "capacity": "eighty", "status": "Charging"],
        ["type": "Battery", "capacity": "-4", "status": "Charging"],
        ["type": "Battery", "capacity": "", "status": "Charging"],
        ["type": "Battery", "capacity": "50", "status": "Exploding"],
        ["type": "Battery", "capacity": "50"],
        ["type": "Battery", "status": "Charging"],
        ["type": "Battery", "energy_now": "10", "status": "Charging"],
        ["type": "Battery", "energy_now": "10", "energy_full": "0", "status": "Charging"],
        ["type": "Battery", "charge_now": "x", "charge_full": "10", "status": "Charging"],
    ])
    func garbageIsNotPresentAndLoggedOnce(attributes: [String: String]) throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", attributes)
        var (battery, log) = Self.reader(tree)
        for _ in 0..<3 { #expect(battery.read() == .absent) }
        let messages = log.messages
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.contains("BAT0") == true)
    }

    @Test func nonUTF8IsGarbage() throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "status": "Charging"])
        try Data([0xFF, 0xFE, 0x0A]).write(to: tree.root.appendingPathComponent("BAT0/capacity"))
        var (battery, log) = Self.reader(tree)
        #expect(battery.read() == .absent)
        #expect(battery.read() == .absent)
        #expect(log.messages.count == 1)
    }

    @Test func missingDirectoryIsNotPresentAndLoggedOnce() throws {
        let tree = try FakeTree()
        var (battery, log) = Self.reader(tree)
        battery = SysfsBattery(path: tree.path + "/nowhere", logger: log.logger(label: "t"))
        #expect(battery.read() == .absent)
        #expect(battery.read() == .absent)
        #expect(log.messages.count == 1)
    }

    @Test func unreadableFileIsNotPresent() throws {
        // A directory where the attribute should be: it opens, but reading fails (EISDIR) even for root.
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "status": "Charging"])
        try FileManager.default.createDirectory(atPath: tree.path + "/BAT0/capacity", withIntermediateDirectories: false)
        var (battery, log) = Self.reader(tree)
        #expect(battery.read() == .absent)
        #expect(battery.read() == .absent)
        let messages = log.messages
        #expect(messages.count == 1)
        #expect(messages.first?.contains("cannot read") == true)
    }

    @Test func recoversWhenTheFileIsFixed() throws {
        let tree = try FakeTree()
        try tree.supply("BAT0", ["type": "Battery", "capacity": "??", "status": "Charging"])
        var (battery, _) = Self.reader(tree)
        #expect(battery.read() == .absent)
        try tree.supply("BAT0", ["capacity": "66"])
        #expect(battery.read() == BatteryReading(level: 66, status: .charging))
        try tree.remove("BAT0", "capacity")
        try tree.supply("BAT0", ["energy_now": "1", "energy_full": "4"])
        #expect(battery.read() == BatteryReading(level: 25, status: .charging))
    }
}
