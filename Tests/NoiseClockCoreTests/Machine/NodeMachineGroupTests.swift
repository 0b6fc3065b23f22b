@testable import NoiseClockCore
import Testing

/// Alarm groups as the machine decides them: a snooze or dismiss here is told to the group; one
/// from another node is followed and never told again; nothing else moves.
@Suite struct NodeMachineGroupTests {
    static let topic = "noiseclock/groups/family/ring"

    /// A connected node whose `family` alarm rings.
    static func ringing(group: String? = "family") -> MachineRig {
        var rig = MachineRig()
        rig.step(.connected)
        let field = group.map { #", "group": "\#($0)""# } ?? ""
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "chime"\#(field)}"#)
        rig.advance(seconds: 30)
        rig.step(.wake)
        #expect(rig.machine.core.alarms.ring?.phase == .ringing)
        return rig
    }

    static func message(from node: String, _ action: String, minutes: Int? = nil, retain: Bool = false) -> NodeInput {
        let body = #"{"action": "\#(action)", "minutes": \#(minutes.map(String.init) ?? "null"), "node": "\#(node)", "alarm_id": "x", "at": "#
            + #""2026-11-21T07:05:01+01:00"}"#
        return .message(InboundMessage(topic: topic, payload: Array(body.utf8), retain: retain))
    }

    static func events(_ effects: [NodeEffect]) -> [String] {
        effects.published("noiseclock/bed/alarm/event").compactMap { try? JSONParser().parse($0.payload) }.compactMap { $0["event"]?.stringValue }
    }

    @Test func aDismissHereIsToldToTheGroup() {
        var rig = Self.ringing()
        let effects = rig.command("alarm/dismiss", "")
        let told = effects.published(Self.topic)
        #expect(told.count == 1)
        let body = try! JSONParser().parse(told[0].payload)
        #expect(body["action"] == "dismiss")
        #expect(body["node"] == "bed")
        #expect(body["alarm_id"] == "w")
        #expect(body["minutes"] == .null)
        #expect(told[0].retain == false && told[0].qos == 1)
    }

    @Test func aSnoozeHereIsToldWithItsMinutes() {
        var rig = Self.ringing()
        let told = rig.command("alarm/snooze", "5").published(Self.topic)
        #expect(try! JSONParser().parse(told[0].payload)["minutes"] == 5)
    }

    @Test func anotherNodesDismissIsFollowedAndNotToldAgain() {
        var rig = Self.ringing()
        let effects = rig.step(Self.message(from: "kids", "dismiss"))
        #expect(Self.events(effects) == ["dismissed"])
        #expect(rig.machine.core.alarms.ring == nil)
        #expect(effects.published(Self.topic).isEmpty, "no reply to a group message")
        #expect(effects.published("noiseclock/bed/response").isEmpty)
        #expect(!rig.written.isEmpty, "the ring's end is saved")
    }

    @Test func anotherNodesSnoozeIsFollowedWithItsMinutes() {
        var rig = Self.ringing()
        let effects = rig.step(Self.message(from: "kids", "snooze", minutes: 15))
        #expect(Self.events(effects) == ["snoozed"])
        #expect(rig.machine.core.alarms.ring?.snoozeUntil == rig.now.adding(seconds: 15 * 60))
        #expect(effects.published(Self.topic).isEmpty)
    }

    @Test func ownRetainedOtherGroupAndIdleAreNothing() {
        var rig = Self.ringing()
        #expect(rig.step(Self.message(from: "bed", "dismiss")).published("noiseclock/bed/alarm/event").isEmpty, "its own message")
        #expect(rig.step(Self.message(from: "kids", "dismiss", retain: true)).published("noiseclock/bed/alarm/event").isEmpty,
            "from before it joined")
        #expect(rig.machine.core.alarms.ring?.phase == .ringing)
        var other = Self.ringing(group: "guests")
        #expect(other.step(Self.message(from: "kids", "dismiss")).published("noiseclock/bed/alarm/event").isEmpty)
        var ungrouped = Self.ringing(group: nil)
        #expect(ungrouped.command("alarm/dismiss", "").published(Self.topic).isEmpty)
        #expect(ungrouped.machine.core.alarms.ring == nil)
    }

    @Test(arguments: ["Family", "", String(repeating: "a", count: 33), "a/b", "+"])
    func badGroupsAreRefused(_ group: String) {
        var rig = MachineRig()
        rig.step(.connected)
        let response = rig.command("alarm/add", #"{"time": "07:05", "group": "\#(group)"}"#).json("noiseclock/bed/response")
        #expect(response?["ok"] == false)
        #expect(response?["error"]?["field"] == "group")
    }
}
