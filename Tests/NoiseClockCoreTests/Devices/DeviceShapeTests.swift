import Testing
@testable import NoiseClockCore

/// What every bridged device shares (`Devices/`): the 5 s wait for an answer on a clock the test
/// moves, the payloads of both bridges, and the list that routes reports and sends commands.
@Suite struct DeviceShapeTests {
    static let t0 = Instant(seconds: 1_000)
    static let plug = DeviceEndpoint(topic: "zigbee2mqtt/plug", bridge: .zigbee2mqtt)
    static let tasmota = DeviceEndpoint(topic: "bed_plug", bridge: .tasmota)

    @Test func theWaitCountsFromTheFirstUnansweredCommandAndRunsOutAtFiveSeconds() {
        var wait = DeviceConfirmation()
        #expect(wait.state == .unknown)
        wait.expect(now: Self.t0)
        wait.expect(now: Self.t0.adding(milliseconds: 3000))
        #expect(wait.answerBy == Self.t0.adding(milliseconds: 5000), "a second command does not move the wait")
        #expect(wait.state == .awaiting)
        let early = wait.expire(now: Self.t0.adding(milliseconds: 4999))
        #expect(!early && wait.lastAnswered == nil)
        let due = wait.expire(now: Self.t0.adding(milliseconds: 5000))
        #expect(due && wait.state == .unconfirmed && wait.answerBy == nil)
        let again = wait.expire(now: Self.t0.adding(milliseconds: 9000))
        #expect(!again, "it runs out once")
        wait.expect(now: Self.t0.adding(milliseconds: 9000))
        wait.answered()
        #expect(wait.state == .confirmed && wait.answerBy == nil)
    }

    @Test func aCommandAfterAWaitRanOutCountsTheMissFirstThenWaitsAgain() {
        var wait = DeviceConfirmation()
        wait.expect(now: Self.t0)
        // No wake came at the deadline (a late timer): the next command still counts the miss.
        wait.expect(now: Self.t0.adding(milliseconds: 7000))
        #expect(wait.lastAnswered == false)
        #expect(wait.answerBy == Self.t0.adding(milliseconds: 12_000))
    }

    @Test func aStartThatNeedsItsOwnAnswerWaitsAnewAndASwitchOffCancels() {
        var wait = DeviceConfirmation()
        wait.expectAnew(now: Self.t0)
        wait.expectAnew(now: Self.t0.adding(milliseconds: 2000))
        #expect(wait.answerBy == Self.t0.adding(milliseconds: 7000))
        wait.cancel()
        let ranOut = wait.expire(now: Self.t0.adding(milliseconds: 60_000))
        #expect(!ranOut && wait.state == .unknown)
    }

    @Test func powerAndTheStateQueryInBothBridgesWords() {
        #expect(Self.plug.powerCommand(true) == DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"ON"}"#))
        #expect(Self.plug.powerCommand(false) == DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"OFF"}"#))
        #expect(Self.plug.stateQuery == DeviceCommand(topic: "zigbee2mqtt/plug/get", payload: #"{"state":""}"#))
        #expect(Self.plug.stateTopics == ["zigbee2mqtt/plug"])
        #expect(Self.tasmota.powerCommand(true) == DeviceCommand(topic: "cmnd/bed_plug/POWER", payload: "ON"))
        #expect(Self.tasmota.powerCommand(false) == DeviceCommand(topic: "cmnd/bed_plug/POWER", payload: "OFF"))
        #expect(Self.tasmota.stateQuery == DeviceCommand(topic: "cmnd/bed_plug/POWER", payload: ""))
        #expect(Self.tasmota.stateTopics == ["stat/bed_plug/RESULT", "stat/bed_plug/POWER"])
    }

    @Test func theReportedPowerInBothBridgesWords() {
        func power(_ device: DeviceEndpoint, _ topic: String, _ text: String) -> Bool? {
            device.reportedPower(topic: topic, payload: Array(text.utf8))
        }
        #expect(power(Self.plug, "zigbee2mqtt/plug", #"{"state":"ON","linkquality":80}"#) == true)
        #expect(power(Self.plug, "zigbee2mqtt/plug", #"{"state":"OFF"}"#) == false)
        #expect(power(Self.plug, "zigbee2mqtt/plug", #"{"linkquality":80}"#) == nil)
        #expect(power(Self.plug, "zigbee2mqtt/plug/availability", "online") == nil)
        #expect(power(Self.tasmota, "stat/bed_plug/RESULT", #"{"POWER":"ON"}"#) == true)
        #expect(power(Self.tasmota, "stat/bed_plug/RESULT", #"{"POWER1":"OFF"}"#) == false)
        #expect(power(Self.tasmota, "stat/bed_plug/POWER", " on ") == true)
        #expect(power(Self.tasmota, "stat/bed_plug/POWER", "0") == false)
        #expect(power(Self.tasmota, "stat/bed_plug/POWER", "maybe") == nil)
        #expect(power(Self.tasmota, "stat/other/POWER", "ON") == nil)
    }

    @Test func aCommandLeavesAsAPublicationOnTheDevicesOwnTopic() {
        let command = Self.tasmota.powerCommand(true)
        let publication = Publication.device(command)
        #expect(publication.absolute && !publication.retain && publication.qos == 1)
        #expect(publication.deviceCommand == command)
        #expect(Publication.event("alarm/event", .null).deviceCommand == nil)
    }

    @Test func everyKindHasItsOwnKeysAndIsMadeFromItsEndpoint() {
        let keys = DeviceList.kinds.map { $0.key }
        #expect(Array(keys.prefix(2)) == ["light", "shaker"], "the lamp's commands go first")
        #expect(Set(keys).count == keys.count && Set(DeviceList.kinds.map { $0.name }).count == keys.count)
        let settings = DeviceSettings(light: DeviceEndpoint(topic: "bulb", bridge: .tasmota), shaker: Self.plug)
        let list = DeviceList(settings: settings)
        #expect(list.all.prefix(2).map { $0.device } == [DeviceEndpoint(topic: "bulb", bridge: .tasmota), Self.plug])
        #expect(settings.stateTopics == ["stat/bulb/RESULT", "stat/bulb/POWER", "zigbee2mqtt/plug"])
        #expect(DeviceList(settings: DeviceSettings()).all.allSatisfy { $0.device == nil })
    }

    /// Each device is a stored property of `DeviceList`, reached by `visit`: one stored and not
    /// visited would follow nothing, hear nothing and be missing from `kinds`.
    @Test func everyStoredDeviceIsVisited() {
        let list = DeviceList(settings: DeviceSettings(light: Self.tasmota, shaker: Self.plug))
        #expect(Mirror(reflecting: list).children.count == DeviceList.kinds.count, "\(DeviceList.kinds)")
        #expect(list.lamp.device == Self.tasmota && list.shaker.device == Self.plug)
    }

    @Test func aReportGoesToTheDeviceWhoseTopicItIsAndNoOtherTopicIsADevices() {
        var core = NodeCore(
            settings: NodeSettings(nodeID: "bed", locale: .en, zone: ZoneRules(identifier: "UTC", fixedOffset: 0),
                                   devices: DeviceSettings(light: Self.tasmota, shaker: Self.plug)),
            now: Self.t0)
        var outbox: [Publication] = []
        let other = core.deviceReported(topic: "zigbee2mqtt/other", payload: Array(#"{"state":"ON"}"#.utf8), now: Self.t0, outbox: &outbox)
        #expect(!other)
        _ = core.handle(CommandMessage(topic: .light(.set), payload: .plain("ON")), now: Self.t0, outbox: &outbox)
        #expect(outbox.compactMap(\.deviceCommand).map(\.topic) == ["cmnd/bed_plug/Backlog"])
        #expect(core.nextDeadline(after: Self.t0) <= Self.t0.adding(milliseconds: 5000), "the wait for the lamp wakes the node")
        let known = core.deviceReported(topic: "stat/bed_plug/POWER", payload: Array("ON".utf8), now: Self.t0, outbox: &outbox)
        #expect(known)
        #expect(core.light.confirmed == true && core.devices.lamp.confirmation.state == .confirmed)
        #expect(core.devices.shaker.confirmation.state == .unknown, "the lamp's report is not the shaker's")
    }
}
