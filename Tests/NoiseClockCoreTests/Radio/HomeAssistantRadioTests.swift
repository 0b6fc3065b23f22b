@testable import NoiseClockCore
import Testing

/// Radio in Home Assistant (v1.3): the stations among the noise select's and each alarm's sound
/// select's options, following `station/add` and `station/delete`; the "Now playing" sensor on
/// `~/noise` `title`; the alarm sound select's command an update the alarm accepts.
@Suite struct HomeAssistantRadioTests {
    typealias F = HomeAssistantFixtures
    let noiseSelect = "homeassistant/select/bed/noise_sound/config"
    let alarmSelect = "homeassistant/select/bed/alarm_a_sound/config"
    static let jazz = SoundCatalog.Entry(id: "radio:jazz", name: "Jazz", category: "radio")

    static func options(_ effects: [NodeEffect], _ topic: String) -> [String]? {
        guard let payload = effects.published(topic).last?.payload, !payload.isEmpty,
              let json = try? JSONParser().parse(payload) else { return nil }
        return json["options"]?.arrayValue?.compactMap(\.stringValue)
    }

    @Test func aStationJoinsTheNoiseAndAlarmSoundSelectsAndLeavesThemWhenDeleted() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let added = rig.command("alarm/add", #"{"id": "a", "time": "07:30", "sound": "chime"}"#)
        #expect(Self.options(added, alarmSelect) == ["chime", "none"])
        let station = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz.mp3"}"#)
        #expect(Self.options(station, noiseSelect) == ["brown", "pink", "radio:jazz"])
        #expect(Self.options(station, alarmSelect) == ["chime", "radio:jazz", "none"])
        let deleted = rig.command("station/delete", "jazz")
        #expect(Self.options(deleted, noiseSelect) == ["brown", "pink"])
        #expect(Self.options(deleted, alarmSelect) == ["chime", "none"])
    }

    @Test func theAlarmSoundSelectReadsAndWritesTheAlarmsSound() throws {
        var context = F.context()
        context.alarmSounds = [.init(id: "classic", name: "Classic", category: "tone"), Self.jazz]
        let configs = HomeAssistantDiscovery.configs(context)
        let select = try #require(F.config(configs, "select", "alarm_wake-1_sound"))
        #expect(select["name"] == "Wake up sound")
        #expect(select["options"] == ["classic", "radio:jazz", "none"])
        #expect(select["state_topic"] == "noiseclock/bedroom/alarms" && select["command_topic"] == "noiseclock/bedroom/alarm/update")
        #expect(select["value_template"] == "{% for a in value_json if a.id == 'wake-1' %}{{ a.sound }}{% else %}None{% endfor %}")
        let template = try #require(select["command_template"]?.stringValue)
        let json = try JSONParser().parse(HomeAssistantTemplateTests.render(template, value: "radio:jazz"))
        let catalog = SoundCatalog(noise: [], alarm: [.init(id: "classic", name: "Classic", category: "tone")])
            .including([Station(id: "jazz", name: "Jazz", url: "http://radio.example:8000/jazz.mp3")])
        let updated = try F.wake.merging(json.objectValue!, catalog: catalog)
        #expect(updated.sound == "radio:jazz" && updated.label == F.wake.label)
    }

    @Test func aSoundTheCatalogLostStaysAnOptionWhileTheAlarmHasIt() throws {
        var context = F.context()
        context.alarmSounds = [Self.jazz]
        let select = try #require(F.config(HomeAssistantDiscovery.configs(context), "select", "alarm_wake-1_sound"))
        // F.wake's sound is "classic", which this catalog does not list.
        #expect(select["options"] == ["radio:jazz", "classic", "none"])
    }

    @Test func theNowPlayingSensorShowsTheTitleOfNoiseAndTheStation() throws {
        let sensor = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "sensor", "now_playing"))
        #expect(sensor["name"] == "Now playing")
        #expect(sensor["state_topic"] == "noiseclock/bedroom/noise" && sensor["json_attributes_topic"] == "noiseclock/bedroom/noise")
        // Home Assistant refuses a state over 255 characters; a title may be 256. None: unknown.
        #expect(sensor["value_template"] == "{{ value_json.title[:255] if value_json.title else 'None' }}")
        #expect(sensor["json_attributes_template"] == "{{ {'station': value_json.station} | to_json }}")
        let topic = "homeassistant/sensor/bedroom/now_playing/config"
        #expect(HomeAssistantSchema.problems(DiscoveryConfig(topic: topic, payload: .object(sensor))) == [])
        // The keys it reads are in ~/noise while a station plays.
        var noise = NoiseState(playing: true, sound: "radio:jazz", volume: 40, sleepTimerMinutes: nil)
        noise.title = StationTitle(sound: "radio:jazz", title: "So What")
        let payload = noise.json(zone: .utc)
        #expect(payload["title"] == "So What" && payload["station"] == "jazz")
    }
}
