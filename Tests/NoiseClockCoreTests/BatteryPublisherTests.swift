import Testing
@testable import NoiseClockCore

@Suite struct BatteryPublisherTests {
    static let t0 = Instant(seconds: 1_763_708_700)

    /// Feeds (seconds after t0, level, status) and returns the levels published, in order.
    static func run(
        _ steps: [(Int64, Int?, BatteryReading.Status)], interval: Int64 = 600
    ) -> [String] {
        var publisher = BatteryPublisher(intervalSeconds: interval)
        var published: [String] = []
        for (offset, level, status) in steps {
            let reading = level.map { BatteryReading(level: $0, status: status) } ?? .absent
            if let publication = publisher.offer(reading, now: t0.adding(seconds: offset)) {
                #expect(publication.topic == "battery" && publication.retain && publication.qos == 1)
                #expect(publication.body == .json(reading.json))
                published.append("\(offset):\(level.map(String.init) ?? "ac")")
            }
        }
        return published
    }

    @Test func publishesAtStartAndOnRealChanges() {
        #expect(Self.run([(0, 80, .discharging), (5, 80, .discharging), (10, 79, .discharging), (15, 78, .discharging)])
            == ["0:80", "10:79", "15:78"])
    }

    @Test func publishesOnChargingChangeAtTheSameLevel() {
        #expect(Self.run([(0, 80, .discharging), (5, 80, .charging), (6, 80, .charging), (7, 80, .full)]) == ["0:80", "5:80", "7:80"])
    }

    @Test func publishesWhenTheBatteryAppearsOrGoes() {
        #expect(Self.run([(0, nil, .full), (5, nil, .full), (6, 40, .discharging), (7, nil, .full)]) == ["0:ac", "6:40", "7:ac"])
    }

    @Test func republishesEveryInterval() {
        #expect(Self.run([(0, 80, .discharging), (59, 80, .discharging), (60, 80, .discharging), (119, 80, .discharging),
                          (120, 80, .discharging)], interval: 60) == ["0:80", "60:80", "120:80"])
    }

    @Test func oneFlickerBackIsPublishedAtMostOnceAMinute() {
        let steps: [(Int64, Int?, BatteryReading.Status)] = [
            (0, 80, .discharging), (5, 79, .discharging), (10, 80, .discharging), (15, 79, .discharging),
            (20, 80, .discharging), (64, 80, .discharging), (65, 80, .discharging), (70, 79, .discharging),
            (124, 79, .discharging), (125, 79, .discharging),
        ]
        // 79 is a real change; 80 back is a flicker held until 60 s after the last publication;
        // 79 back again is likewise held until 60 s after that.
        #expect(Self.run(steps) == ["0:80", "5:79", "65:80", "125:79"])
    }

    @Test func twoPercentIsNotAFlicker() {
        #expect(Self.run([(0, 80, .discharging), (5, 79, .discharging), (10, 81, .discharging), (11, 80, .discharging)])
            == ["0:80", "5:79", "10:81", "11:80"])
    }

    @Test func chargingChangeIsNeverHeldBackAsAFlicker() {
        #expect(Self.run([(0, 80, .discharging), (5, 79, .discharging), (10, 80, .charging)]) == ["0:80", "5:79", "10:80"])
    }

    @Test func clockGoingBackwardsPublishesAfresh() {
        #expect(Self.run([(100, 80, .discharging), (50, 80, .discharging), (55, 80, .discharging)]) == ["100:80", "50:80"])
    }

    @Test func deadlineAndRetained() {
        var publisher = BatteryPublisher(intervalSeconds: 300)
        #expect(publisher.nextDeadline == nil && publisher.retained.isEmpty)
        _ = publisher.offer(BatteryReading(level: 33, status: .charging), now: Self.t0)
        #expect(publisher.nextDeadline == Self.t0.adding(seconds: 300))
        #expect(publisher.retained == [BatteryPublisher.publication(BatteryReading(level: 33, status: .charging))])
    }
}
