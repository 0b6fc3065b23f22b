import Testing
@testable import NoiseClockCore

/// What the node tells the broker when a session starts, and what it does not repeat.
@Suite struct NodeMachineSessionTests {
    @Test func startArmsTheTimerForTheNextMinute() {
        var rig = MachineRig()
        let effects = rig.machine.start(now: rig.now)
        #expect(effects == [.arm(Instant(seconds: 1_795_241_100))])
    }

    @Test func connectedAnnouncesOnlineFirstThenConfigsThenState() {
        var rig = MachineRig()
        let effects = rig.step(.connected)
        let topics = effects.topics
        #expect(topics.first == "noiseclock/bed/availability")
        #expect(effects.publications.first?.text == "online")
        #expect(effects.publications.first?.retain == true)
        let firstConfig = topics.firstIndex { $0.hasPrefix("homeassistant/") }
        let firstState = topics.firstIndex { $0 == "noiseclock/bed/noise" }
        #expect(firstConfig != nil && firstState != nil && firstConfig! < firstState!)
        for suffix in ["alarms", "alarm", "style", "noise", "sounds"] {
            let message = effects.published("noiseclock/bed/\(suffix)")
            #expect(message.count == 1, "\(suffix)")
            #expect(message.first?.retain == true, "\(suffix)")
        }
        // Nothing changed: the files already on disk are not rewritten.
        #expect(rig.written.isEmpty)
    }

    /// A node without buttons deletes a `~/buttons` list that an earlier configuration with
    /// buttons left retained on the broker, once per connection.
    @Test func aNodeWithoutButtonsClearsALeftOverButtonsListOncePerConnection() {
        var rig = MachineRig()
        let effects = rig.step(.connected)
        let cleared = effects.published("noiseclock/bed/buttons")
        #expect(cleared.count == 1)
        #expect(cleared.first?.payload == [] && cleared.first?.retain == true)
        #expect(rig.command("noise/set", "ON").published("noiseclock/bed/buttons").isEmpty)
        rig.step(.disconnected)
        #expect(rig.step(.connected).published("noiseclock/bed/buttons").count == 1)
    }

    @Test func aNodeWithoutStateFilesWritesItsDefaultsOnTheFirstChange() {
        var rig = MachineRig(persisted: [:])
        rig.step(.connected)
        #expect(rig.written.map(\.file) == ["alarms.json", "style.json", "noise.json", "routines.json", "timers.json", "mixes.json",
            "stations.json"],
            "in the order the features are registered")
        rig.written = []
        rig.advance(seconds: 30)
        rig.step(.wake)
        #expect(rig.written.isEmpty)
    }

    @Test func retainedStateWaitsForTheConnectionButEventsDoNot() {
        var rig = MachineRig()
        let effects = rig.command("noise/set", "ON")
        #expect(effects.published("noiseclock/bed/noise").isEmpty)
        #expect(effects.published("noiseclock/bed/response").count == 1)
        // The change is saved even before the broker is reachable.
        #expect(rig.written.map(\.file) == ["noise.json"])
        let connected = rig.step(.connected)
        #expect(connected.json("noiseclock/bed/noise")?["playing"] == true)
    }

    @Test func unchangedStateIsNotPublishedAgain() {
        var rig = MachineRig()
        rig.step(.connected)
        let first = rig.command("noise/volume/set", "30")
        #expect(first.published("noiseclock/bed/noise").count == 1)
        let second = rig.command("noise/volume/set", "30")
        #expect(second.published("noiseclock/bed/noise").isEmpty)
        #expect(second.published("noiseclock/bed/response").count == 1)
        #expect(rig.written.count == 1, "the same volume twice is one write")
    }

    @Test func aReconnectPublishesEveryRetainedTopicAgain() {
        var rig = MachineRig()
        rig.step(.connected)
        #expect(rig.step(.disconnected).publications.isEmpty)
        let offline = rig.command("noise/volume/set", "25")
        #expect(offline.published("noiseclock/bed/noise").isEmpty, "retained state is not sent while offline")
        let again = rig.step(.connected)
        #expect(again.json("noiseclock/bed/noise")?["volume"] == 25)
        #expect(again.published("noiseclock/bed/alarms").count == 1)
        #expect(again.published("noiseclock/bed/style").count == 1)
    }

    @Test func batteryReadingsThatAreNotNewsDoNothing() {
        var rig = MachineRig()
        rig.step(.connected)
        let first = rig.step(.battery(BatteryReading(level: 80, status: .discharging)))
        #expect(first.json("noiseclock/bed/battery")?["level"] == 80)
        rig.advance(seconds: 5)
        #expect(rig.step(.battery(BatteryReading(level: 80, status: .discharging))).isEmpty)
    }

    @Test func audioStatusIsPublishedAndLoggedAfterIt() {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.audio(AudioStatus(device: "hw:0", state: .unavailable, error: "busy")))
        #expect(effects.json("noiseclock/bed/audio")?["status"] == "unavailable")
        #expect(effects.logs == [LogRecord(.warning, "audio unavailable", ["device": "hw:0", "error": "busy"])])
        let publishAt = effects.index { if case .publish = $0 { true } else { false } }!
        let logAt = effects.index { if case .log = $0 { true } else { false } }!
        #expect(publishAt < logAt)
    }
}

/// mqtt-api v1.4 "Noise that cannot be heard says so": `~/noise` `error` while the noise plays and
/// the sound device does not; `playing` stays what the owner asked for.
@Suite struct NoiseUnheardTests {
    @Test func playingNoiseOnADeadDeviceSaysSoAndClearsWhenItPlays() throws {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(.audio(AudioStatus(device: "hw:0", state: .unavailable, error: "cannot open hw:0: No such device")))
        let answer = rig.command("noise/set", "ON")
        let noise = try #require(answer.json("noiseclock/bed/noise"))
        #expect(noise["playing"] == true)
        #expect(noise["error"] == "audio_unavailable: cannot open hw:0: No such device")
        let back = rig.step(.audio(AudioStatus(device: "hw:0", state: .ok)))
        #expect(back.json("noiseclock/bed/noise")?["error"] == .null)
        #expect(back.json("noiseclock/bed/noise")?["playing"] == true)
    }

    @Test func stoppedNoiseSaysNothingOfTheDevice() {
        var rig = MachineRig()
        rig.step(.connected)
        let gone = rig.step(.audio(AudioStatus(device: "hw:0", state: .unavailable, error: "busy")))
        #expect(gone.json("noiseclock/bed/noise") == nil, "nothing plays: ~/noise is not news")
        #expect(rig.command("noise/set", "OFF").json("noiseclock/bed/noise")?["error"] ?? .null == .null)
    }
}
