import Foundation
import Glibc
import NoiseClockCore
import Testing

/// Nights of a bedroom node on the test clock. Night 0 (Saturday) is idle: the weekday alarm
/// exists, nothing is due. From Sunday on each day brings acknowledged changes (style, the
/// alarm's label, the routine's volume), a sounds folder that changes (a file added, the day
/// before's removed), a nap timer, and on `restartDays` a broker restart; each night `say`, the
/// routine (22:00–06:25, brown noise and the lamp through its bridge) and, before a weekday, the
/// 06:30 alarm, snoozed by the local button, snoozed again by Home Assistant and dismissed by
/// one or the other. The clock jumps to 0.1 s before each thing due, so the node reaches it on
/// its own timer; every wait is for a message or a log line. (Unchecked: one test task drives it,
/// step after step.)
final class SoakWeek: @unchecked Sendable {
    struct Night {
        let number: Int
        /// `fired` events of the weekday alarm: at its minute (snooze count 0), and after snoozes.
        var rings = 0, refires = 0, sounding = 0
        /// Nap timers that rang the day before this night.
        var naps = 0
        /// At 23:00, the routine playing: memory, descriptors, threads.
        var atEleven: NodeFigures?
        /// 21:00 to 10:00 (the night), and 10:00 to 21:00 of the day before it.
        var night: (start: NodeFigures, end: NodeFigures)?
        var day: (start: NodeFigures, end: NodeFigures)?
    }

    /// What the node acknowledged last, to be found after every broker restart and at the end.
    struct Acknowledged {
        var label = "Work"
        var glow: Int?
        var routineVolume: Int?
    }

    let soak: SoakRig
    let base: Date
    let restartDays: Set<Int>
    var nights: [Night] = []
    var acknowledged = Acknowledged()
    var node: NodeProcess { soak.node }
    var root: String { soak.root }
    var rig: AlarmRig { soak.rig }

    /// A Saturday at least two days ahead of today, midnight UTC: far from the wall clock.
    static func saturday() -> Date {
        var day = Int(Date().timeIntervalSince1970) / 86_400 + 2
        while (day + 4) % 7 != 6 { day += 1 }  // day 0 was a Thursday
        return Date(timeIntervalSince1970: Double(day * 86_400))
    }

    init(restartDays: Set<Int>) async throws {
        base = Self.saturday()
        self.restartDays = restartDays
        soak = try await SoakRig(clock: base.addingTimeInterval(12 * 3600))
    }

    /// `hour:minute` UTC of `day` days after the first Saturday.
    func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        base.addingTimeInterval(Double(day * 86_400 + hour * 3600 + minute * 60))
    }

    /// Whether the morning after night `n` is a weekday (night 1 is Sunday's).
    static func weekdayMorning(after night: Int) -> Bool { (2...6).contains((night + 1) % 7) }

    func figures() throws -> NodeFigures { try NodeFigures(pid: node.pid, log: node.logFile, ledger: soak.ledger) }

    /// Saturday noon: the weekday alarm; then the idle night to Sunday 10:00, its first
    /// `walkMinutes` after midnight one by one (the node's own minute timer, its `~/time`), so a
    /// write made every minute would show in the night's bytes.
    func idleNight(walkMinutes: Int) async throws {
        try await rig.ok(node, "alarm/add", #"{"id": "work", "time": "06:30", "repeat": "weekdays", "label": "Work", "snooze_minutes": 9}"#)
        var record = Night(number: 0)
        try await node.setClock(to: at(0, 21))
        try await rig.barrier(node)
        let start = try figures(), mark = rig.client.messages.count
        for minute in (0..<walkMinutes).map({ at(1, 0, $0) }) {
            // A clock step publishes no minute it lands after: when the busy machine let the node
            // take the step only past the boundary, step back further and again.
            var margin = 0.1, before = 0
            repeat {
                before = rig.client.messages.count
                try await node.setClock(to: minute.addingTimeInterval(-margin))
                margin *= 2
            } while node.now >= minute && margin < 10
            let epoch = Int(minute.timeIntervalSince1970)
            try await rig.client.waitFor("\(root)/time", after: before) { $0.json?["epoch"]?.intValue == epoch }
        }
        try await node.setClock(to: at(1, 10))
        try await rig.barrier(node)
        record.night = (start, try figures())
        try count(&record, since: mark)
        nights.append(record)
    }

    /// Day `n` (1 = Sunday) from 10:00 to 21:00, then its night to 10:00 the next morning.
    func dayAndNight(_ n: Int) async throws {
        var record = Night(number: n)
        let dayStart = try figures(), dayMark = rig.client.messages.count
        try await node.setClock(to: at(n, 12))
        try await acknowledgedChanges(n)
        try await node.setClock(to: at(n, 13))
        try await changeSounds(n)
        try await node.setClock(to: at(n, 14))
        try await nap()
        if restartDays.contains(n) {
            try await node.setClock(to: at(n, 15))
            try await soak.restartBroker()
            try await checkKept("after the broker restart of day \(n)")
        }
        try await node.setClock(to: at(n, 21))
        try await rig.barrier(node)
        let nightStart = try figures()
        record.day = (dayStart, nightStart)
        let fired = rig.messages(node, "alarm/fired", after: dayMark).compactMap(\.json)
        record.naps = fired.filter { $0["source"] == "timer" }.count
        #expect(record.naps == 1 && fired.count == 1, "day \(n): \(fired.map(\.serialized))")
        let mark = rig.client.messages.count
        try await night(n, &record)
        try await node.setClock(to: at(n + 1, 10))
        try await rig.barrier(node)
        record.night = (nightStart, try figures())
        try count(&record, since: mark)
        nights.append(record)
    }

    func acknowledgedChanges(_ n: Int) async throws {
        if n == 1 {
            let routine = #"{"id": "night", "label": "Night", "start": "22:00", "end": "06:25", "sound": "brown", "volume": 30, "#
                + #""light": {"brightness": 5, "kelvin": 2200}}"#
            try await rig.ok(node, "routine/add", routine)
            acknowledged.routineVolume = 30
        } else {
            try await rig.ok(node, "routine/update", #"{"id": "night", "volume": \#(30 + n)}"#)
            acknowledged.routineVolume = 30 + n
        }
        try await rig.ok(node, "style/set", #"{"glow": \#(n * 7 % 101)}"#)
        acknowledged.glow = n * 7 % 101
        try await rig.ok(node, "alarm/update", #"{"id": "work", "label": "Work \#(n)"}"#)
        acknowledged.label = "Work \(n)"
    }

    /// A file added to the sounds folder, the day before's removed; both seen on `~/sounds`.
    func changeSounds(_ n: Int) async throws {
        let mark = rig.client.messages.count
        try TimingSuite.Audio.AlarmFailsafeTests.wav().write(to: soak.sounds.appendingPathComponent("night\(n).wav"))
        if n > 1 { unlink(soak.sounds.appendingPathComponent("night\(n - 1).wav").path) }
        let added = JSONValue.string("night\(n)"), removed = JSONValue.string("night\(n - 1)")
        try await rig.client.waitFor("\(root)/sounds", timeout: 10, after: mark) { message in
            let ids = (message.json?["noise"]?.arrayValue ?? []).map { $0["id"] }
            return ids.contains(added) && !ids.contains(removed)
        }
    }

    /// A power nap: started, rung at its end (with the node's own timer), dismissed.
    func nap() async throws {
        let timer = try await rig.ok(node, "timer/start", #"{"preset": "power_nap"}"#)
        let id = try #require(timer["id"]?.stringValue)
        let end = try #require(timer["ends_at"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
        let mark = rig.client.messages.count
        try await node.setClock(to: end.addingTimeInterval(-0.1))
        try await rig.client.waitFor("\(root)/alarm/fired", after: mark) { $0.json?["id"] == .string(id) }
        try await rig.client.waitFor("\(root)/alarm/event", after: mark) { $0.json?["event"] == "sounding" }
        try await rig.ok(node, "alarm/dismiss", "")
    }

    /// 21:30 `say`; the routine with its lamp; 23:00 figures; its end; the weekday alarm.
    func night(_ n: Int, _ record: inout Night) async throws {
        try await node.setClock(to: at(n, 21, 30))
        let said = try await rig.ok(node, "say", "Good night, day \(n)")
        #expect((said["seconds"]?.doubleValue ?? 0) > 0, "\(said)")

        var mark = rig.client.messages.count, lamp = soak.bridge.commands.count
        try await node.setClock(to: at(n, 22).addingTimeInterval(-0.1))
        try await rig.client.waitFor("\(root)/routine/event", after: mark) { $0.json?["event"] == "started" }
        let on = try await soak.bridge.waitFor(after: lamp) { !$0.isOff }
        #expect(on.json?["state"] == "ON", "\(on.payload)")
        try await rig.client.waitFor("\(root)/light", after: mark) { $0.json?["state"] == "ON" && $0.json?["confirmed"] == true }
        try await rig.client.waitFor("\(root)/noise", after: mark) { $0.json?["playing"] == true && $0.json?["routine"] == "night" }

        try await node.setClock(to: at(n, 23))
        try await rig.barrier(node)
        record.atEleven = try figures()

        mark = rig.client.messages.count
        lamp = soak.bridge.commands.count
        try await node.setClock(to: at(n + 1, 6, 25).addingTimeInterval(-0.1))
        try await rig.client.waitFor("\(root)/routine/event", after: mark) { $0.json?["event"] == "ended" }
        _ = try await soak.bridge.waitFor(after: lamp) { $0.isOff }
        if Self.weekdayMorning(after: n) { try await wakeUp(n) }
    }

    /// 06:30: rung, snoozed by the button, rung again, snoozed by Home Assistant, rung again, and
    /// dismissed by Home Assistant (odd nights) or the button (even nights).
    func wakeUp(_ n: Int) async throws {
        var due = at(n + 1, 6, 30)
        for step in ["button", "home assistant", n % 2 == 1 ? "home assistant" : "button"].enumerated() {
            let mark = rig.client.messages.count
            try await node.setClock(to: due.addingTimeInterval(-0.1))
            try await rig.client.waitFor("\(root)/alarm/fired", after: mark) { $0.json?["id"] == "work" }
            try await rig.client.waitFor("\(root)/alarm/event", after: mark) { $0.json?["event"] == "sounding" }
            let last = step.offset == 2
            let command = last ? "alarm/dismiss" : "alarm/snooze"
            let sent = rig.client.messages.count
            if step.element == "button" {
                try soak.press(last ? SoakRig.offKey : SoakRig.snoozeKey)
            } else {
                try soak.pressHomeAssistant(last ? soak.homeAssistantDismiss : soak.homeAssistantSnooze)
            }
            let answer = try await rig.client.waitFor("\(root)/response", after: sent) { $0.json?["command"] == .string(command) }
            #expect(answer.json?["ok"] == true, "\(step.element) \(command): \(answer.text)")
            if last {
                try await rig.client.waitFor("\(root)/alarm/event", after: sent) { $0.json?["event"] == "dismissed" }
            } else {
                let state = try await rig.client.waitFor("\(root)/alarm", after: sent) { $0.json?["state"] == "snoozed" }
                due = try #require(state.json?["snooze_until"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
            }
        }
    }
}
