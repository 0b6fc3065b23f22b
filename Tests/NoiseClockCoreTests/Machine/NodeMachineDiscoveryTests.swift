import Testing
@testable import NoiseClockCore

/// Home Assistant discovery: configs follow the alarms, stale ones are cleared, and a restart of
/// Home Assistant is answered after a random delay.
@Suite struct NodeMachineDiscoveryTests {
    let alarmSwitch = "homeassistant/switch/bed/alarm_a_enabled/config"

    @Test func anAlarmGetsItsEntitiesAndLosesThemWhenDeleted() {
        var rig = MachineRig()
        rig.step(.connected)
        let added = rig.command("alarm/add", #"{"id": "a", "time": "07:30"}"#)
        #expect(added.published(alarmSwitch).count == 1)
        let response = added.topics.firstIndex(of: "noiseclock/bed/response")!
        let config = added.topics.firstIndex(of: alarmSwitch)!
        #expect(response < config, "the answer does not wait for discovery")
        let deleted = rig.command("alarm/delete", "a")
        #expect(deleted.published(alarmSwitch).map(\.payload) == [[]])
        #expect(deleted.published(alarmSwitch).first?.retain == true)
    }

    @Test func configsAreNotRepublishedWhenNothingTheyShowChanged() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("noise/volume/set", "22")
        #expect(effects.topics.filter { $0.hasPrefix("homeassistant/") }.isEmpty)
    }

    @Test func withDiscoveryOffNothingIsAnnouncedAndFoundConfigsAreCleared() {
        var rig = MachineRig(discovery: false)
        let connected = rig.step(.connected)
        #expect(connected.topics.filter { $0.hasPrefix("homeassistant/") }.isEmpty)
        let found = InboundMessage(topic: "homeassistant/switch/bed/noise/config", payload: Array("{}".utf8), retain: true)
        let effects = rig.step(.message(found))
        #expect(effects.published(found.topic).map(\.payload) == [[]])
    }

    @Test func aStrayConfigOfThisNodeIsClearedOnceTheBatteryIsKnown() {
        var rig = MachineRig()
        rig.step(.connected)
        let stray = InboundMessage(topic: "homeassistant/switch/bed/alarm_gone_enabled/config", payload: Array("{}".utf8), retain: true)
        // Before the first battery reading the node cannot tell a stale battery entity from a live one.
        #expect(rig.step(.message(stray)).published(stray.topic).isEmpty)
        let read = rig.step(.battery(.absent))
        #expect(read.published(stray.topic).map { $0.payload } == [[]])
        // A live (non-retained) copy of one of its own configs is not a stray.
        let live = InboundMessage(topic: "homeassistant/switch/bed/noise/config", payload: Array("{}".utf8), retain: false)
        #expect(rig.step(.message(live)).isEmpty)
    }

    @Test func homeAssistantsBirthIsAnsweredAfterARandomDelayWithEverything() {
        var rig = MachineRig()
        rig.step(.connected)
        let birth = rig.step(.message(InboundMessage(topic: "homeassistant/status", payload: Array("online".utf8))))
        let due = try! #require(rig.machine.republishAt)
        #expect(due >= rig.now.adding(milliseconds: 1000) && due <= rig.now.adding(milliseconds: 5000))
        #expect(birth.publications.isEmpty)
        #expect(birth.arms == [due], "the timer wakes the node for the re-publication")
        rig.now = due
        let again = rig.step(.wake)
        #expect(again.published(alarmSwitch).isEmpty)
        #expect(again.published("homeassistant/switch/bed/noise/config").count == 1)
        #expect(again.published("noiseclock/bed/noise").count == 1)
        #expect(again.published("noiseclock/bed/alarms").count == 1)
        #expect(rig.machine.republishAt == nil)
    }

    @Test(arguments: ["offline", "", "hello"])
    func otherBirthPayloadsAreIgnored(payload: String) {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(.message(InboundMessage(topic: "homeassistant/status", payload: Array(payload.utf8))))
        #expect(rig.machine.republishAt == nil)
    }

    @Test func theBirthDelayComesFromTheSeed() {
        let birth = NodeInput.message(InboundMessage(topic: "homeassistant/status", payload: Array("online".utf8)))
        var one = MachineRig()
        var two = MachineRig()
        one.step(birth)
        two.step(birth)
        #expect(one.machine.republishAt != nil)
        #expect(one.machine.republishAt == two.machine.republishAt)
    }
}
