import Testing
@testable import NoiseClockCore

/// The fleet view from messages as a broker hands them over: rows by node, what makes the exit
/// status 1, and what is not a node.
@Suite struct FleetViewTests {
    static func take(_ view: inout FleetView, _ topic: String, _ payload: String, retain: Bool = true) {
        view.take(topic: topic, payload: Array(payload.utf8), retain: retain, receivedAt: "2026-11-25T05:00:00+00:00")
    }

    @Test func rowsAndExitStatus() {
        var view = FleetView(base: "home/clocks")
        Self.take(&view, "home/clocks/a/availability", "online")
        Self.take(&view, "home/clocks/a/alarm", #"{"state":"idle","next":{"id":"w","label":"Wake","at":"2026-11-26T07:00:00+01:00"},"#
            + #""ready":{"ok":false,"checked_at":"2026-11-25T05:59:00+01:00","problems":[{"code":"output_muted","message":"off"}]}}"#)
        Self.take(&view, "home/clocks/a/battery", #"{"present":true,"level":87,"status":"discharging"}"#)
        Self.take(&view, "home/clocks/b/availability", "offline")
        Self.take(&view, "home/clocks/b/alarm", #"{"state":"idle","next":null,"ready":{"ok":false,"checked_at":"x","problems":[]}}"#)
        Self.take(&view, "home/clocks/all/alarm/add", "{}")
        Self.take(&view, "home/clocks/groups/family/ring", "{}")
        Self.take(&view, "homeassistant/binary_sensor/a/alarm_ready/config", #"{"device":{"identifiers":["noiseclock_a"],"sw_version":"1.2.0"}}"#)
        #expect(view.nodes.map(\.id) == ["a", "b"])
        let a = view.nodes[0]
        #expect(a.version == "1.2.0" && a.battery == "87%" && a.next?.label == "Wake")
        #expect(a.ready?.codes == ["output_muted"])
        #expect(a.lastHeard == "2026-11-25T05:59:00+01:00")
        #expect(view.exitStatus == 1, "a is online and not ready")
        #expect(view.table.hasSuffix("2 nodes: 1 online, 1 offline; 1 online not ready"))
        Self.take(&view, "home/clocks/a/alarm",
            #"{"state":"idle","next":null,"ready":{"ok":true,"checked_at":"2026-11-25T06:00:00+01:00","problems":[]}}"#)
        #expect(view.exitStatus == 0, "b is not ready but offline")
    }

    @Test func oneNodeIsCountedInTheSingular() {
        var view = FleetView(base: "home/clocks")
        Self.take(&view, "home/clocks/a/availability", "online")
        #expect(view.table.hasSuffix("1 node: 1 online, 0 offline; 0 online not ready"))
    }
}
