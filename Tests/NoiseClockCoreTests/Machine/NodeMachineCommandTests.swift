import Testing
@testable import NoiseClockCore

/// How a command goes through the machine: persisted before anything is said about it,
/// answered where it came from, and logged last.
@Suite struct NodeMachineCommandTests {
    @Test func anAcceptedCommandIsWrittenThenPublishedThenAnsweredThenLogged() {
        var rig = MachineRig()
        rig.step(.connected)
        let plan = rig.machine.plan(.message(InboundMessage(topic: "noiseclock/bed/noise/set", payload: Array("ON".utf8))), now: rig.now)
        #expect(plan.writes.map(\.file) == ["noise.json"])
        #expect(plan.writes.first?.document["playing"] == true)
        let effects = rig.machine.finish(plan, failure: nil)
        let order = effects.map { effect -> String in
            switch effect {
            case .publish(let message): message.topic
            case .play: "play"
            case .arm: "arm"
            case .log: "log"
            case .reply: "reply"
            case .observe(let observation): "observe " + observation.suffix
            case .snapshot: "snapshot"
            case .checkReadiness: "check"
            case .learnButtons: "learn"
            case .speak: "speak"
            case .probeStation: "probe"
            case .tellDirectory: "tell directory"
            case .useSounds: "sounds"
            case .subscribe: "subscribe"
            case .readButtons: "buttons"
            case .exitSafeMode: "exit safe mode"
            case .restart: "restart"
            case .editSettings: "settings"
            case .useSoundDevice: "device"
            case .watchSoundsFolder: "folder"
            }
        }
        #expect(order == ["noiseclock/bed/noise", "noiseclock/bed/response", "play", "log"])
        #expect(effects.json("noiseclock/bed/response")?["ok"] == true)
        #expect(effects.logs.map(\.message) == ["command"])
        #expect(rig.machine.core.noise.state.playing)
    }

    @Test func aRefusedCommandChangesNothingAndWritesNothing() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("noise/volume/set", "120")
        #expect(rig.written.isEmpty)
        #expect(effects.topics == ["noiseclock/bed/response"])
        let response = effects.json("noiseclock/bed/response")
        #expect(response?["ok"] == false)
        #expect(response?["error"]?["code"] == "invalid_field")
        #expect(effects.logs.first?.message == "command refused")
        #expect(rig.machine.core.noise.state.volume == 40)
    }

    @Test func aCommandThatCannotBeSavedIsRefusedAndForgotten() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("noise/volume/set", "10", failAt: 0)
        #expect(effects.topics == ["noiseclock/bed/response"], "no state goes out for a change that was not saved")
        let response = effects.json("noiseclock/bed/response")
        #expect(response?["ok"] == false)
        #expect(response?["error"]?["code"] == "storage_error")
        #expect(response?["error"]?["message"] == "could not save the change: disk full")
        #expect(rig.machine.core.noise.state.volume == 40)
        #expect(effects.logs.map(\.level) == [.error])
        // The disk works again: the same command is written and published.
        let retry = rig.command("noise/volume/set", "10")
        #expect(rig.written.map(\.file) == ["noise.json"])
        #expect(retry.json("noiseclock/bed/noise")?["volume"] == 10)
    }

    @Test func aTimeDrivenChangeThatCannotBeSavedIsKeptAndWrittenWithTheNextChange() {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("noise/set", #"{"playing": true, "sleep_timer_minutes": 1}"#)
        rig.written = []
        rig.advance(seconds: 61)
        let stop = rig.step(.wake, failAt: 0)
        #expect(stop.json("noiseclock/bed/noise")?["playing"] == false, "the sleep timer stops the noise even if the file cannot be written")
        #expect(stop.logs.contains { $0.level == .error && $0.message == "state not saved" })
        #expect(rig.written.isEmpty)
        // The next change writes noise.json again, now holding both changes.
        _ = rig.command("noise/volume/set", "33")
        #expect(rig.written.map(\.file) == ["noise.json"])
        #expect(rig.written.first?.document["playing"] == false)
        #expect(rig.written.first?.document["volume"] == 33)
    }

    @Test func retainedCommandsAreRefusedWithAnExplanation() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("alarm/add", #"{"time": "07:00"}"#, retain: true)
        #expect(rig.machine.core.alarms.book.alarms.isEmpty)
        let response = effects.json("noiseclock/bed/response")
        #expect(response?["error"]?["code"] == "invalid_field")
        #expect(response?["error"]?["field"] == "retain")
        #expect(effects.logs.first?.level == .warning)
    }

    @Test func clearingARetainedCommandIsNotAnsweredAndChangesNothing() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("noise/volume/set", "", retain: true)
        #expect(effects.publications.isEmpty)
        #expect(effects.logs.map(\.level) == [.debug])
        #expect(rig.written.isEmpty)
    }

    @Test func aV5ResponseTopicGetsTheAnswerWithItsCorrelationData() {
        var rig = MachineRig()
        rig.step(.connected)
        let message = InboundMessage(
            topic: "noiseclock/all/noise/volume/set", payload: Array("20".utf8),
            responseTopic: "client/7/reply", correlationData: [1, 2, 3]
        )
        let effects = rig.step(.message(message))
        let reply = effects.published("client/7/reply")
        #expect(reply.count == 1)
        #expect(reply.first?.correlationData == [1, 2, 3])
        #expect(reply.first?.payload == effects.published("noiseclock/bed/response").first?.payload)
    }

    @Test(arguments: ["", "client/+/reply", "client/#"])
    func aResponseTopicWithWildcardsOrEmptyIsIgnored(topic: String) {
        var rig = MachineRig()
        rig.step(.connected)
        let message = InboundMessage(topic: "noiseclock/bed/noise/volume/set", payload: Array("20".utf8), responseTopic: topic)
        #expect(rig.step(.message(message)).topics.filter { !$0.hasPrefix("noiseclock/bed/") }.isEmpty)
    }

    @Test func aLocalRequestIsAnsweredToItsSourceNotOnTheResponseTopic() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.request(LocalRequest(id: 9, command: "noise/volume/set", payload: Array("15".utf8))))
        #expect(effects.published("noiseclock/bed/response").isEmpty)
        #expect(effects.json("noiseclock/bed/noise")?["volume"] == 15)
        let replies = effects.compactMap { if case .reply(let id, let response) = $0 { (id, response) } else { nil } }
        #expect(replies.count == 1)
        #expect(replies.first?.0 == 9)
        #expect(replies.first?.1.ok == true)
        #expect(replies.first?.1.command == "noise/volume/set")
    }

    @Test func aLocalRequestThatCannotBeSavedIsRefusedToItsSource() {
        var rig = MachineRig()
        let effects = rig.step(.request(LocalRequest(id: 4, command: "style/preset", payload: Array("day".utf8))), failAt: 0)
        guard case .reply(4, let response) = effects.first else {
            Issue.record("expected a reply first, got \(effects)")
            return
        }
        #expect(response.outcome == .failure(CommandError(.storageError, "could not save the change: disk full")))
    }

    @Test func anUnknownCommandTopicUnderTheGroupRootIsAnsweredAsUnknown() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.request(LocalRequest(id: 1, command: "alarm/explode", payload: [])))
        guard case .reply(1, let response) = effects.first else {
            Issue.record("expected a reply, got \(effects)")
            return
        }
        #expect(response.json["error"]?["code"] == "unknown_command")
    }

    @Test func messagesOutsideTheNodesTopicsAreIgnored() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.message(InboundMessage(topic: "noiseclock/kitchen/noise/set", payload: Array("ON".utf8))))
        #expect(effects.isEmpty)
    }
}
