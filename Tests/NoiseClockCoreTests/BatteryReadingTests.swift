import Testing
@testable import NoiseClockCore

@Suite struct BatteryReadingTests {
    @Test(arguments: [
        (-5, BatteryLevelColor.red), (0, .red), (9, .red), (10, .orange), (19, .orange), (20, .yellow), (49, .yellow),
        (50, .green), (100, .green), (150, .green),
    ])
    func levelColourAtEveryEdge(level: Int, color: BatteryLevelColor) {
        #expect(BatteryLevelColor(level: level) == color)
    }

    @Test func presentBatteryJSON() {
        #expect(BatteryReading(level: 87, status: .charging).json.serialized
            == #"{"present":true,"level":87,"charging":true,"status":"charging","color":"green"}"#)
        #expect(BatteryReading(level: 9, status: .discharging).json.serialized
            == #"{"present":true,"level":9,"charging":false,"status":"discharging","color":"red"}"#)
        #expect(BatteryReading(level: 100, status: .full).json["status"] == "full")
        #expect(BatteryReading(level: 60, status: .notCharging).json["status"] == "not_charging")
    }

    @Test func absentBatteryJSON() {
        #expect(BatteryReading.absent.json.serialized == #"{"present":false,"status":"ac"}"#)
        #expect(!BatteryReading.absent.present && BatteryReading.absent.level == nil && !BatteryReading.absent.charging)
    }

    @Test func levelIsClampedToPercent() {
        #expect(BatteryReading(level: 104, status: .full).level == 100)
        #expect(BatteryReading(level: -3, status: .discharging).level == 0)
    }

    @Test func equalityComparesLevelAndStatus() {
        #expect(BatteryReading(level: 50, status: .charging) == BatteryReading(level: 50, status: .charging))
        #expect(BatteryReading(level: 50, status: .charging) != BatteryReading(level: 50, status: .full))
        #expect(BatteryReading(level: 50, status: .charging) != BatteryReading(level: 51, status: .charging))
        #expect(BatteryReading(level: 0, status: .charging) != .absent)
    }
}
