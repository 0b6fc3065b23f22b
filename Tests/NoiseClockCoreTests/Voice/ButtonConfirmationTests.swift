import Testing
@testable import NoiseClockCore

/// `speech.confirm_buttons`: a button's command, once it succeeded, is followed by what it did,
/// in English and Korean; the same command over MQTT says nothing, nor does a refused one.
@Suite struct ButtonConfirmationTests {
    func speakRequests(_ effects: [NodeEffect]) -> [String] {
        effects.compactMap { if case .speak(let request) = $0 { request.text } else { nil } }
    }

    /// A node with one local button (`top`) whose press, double and hold are given.
    static func rig(locale: NodeLocale = .en, press: ButtonAction, double: ButtonAction = .noiseToggle, hold: ButtonAction = .dismiss,
                    confirm: Bool = true) -> MachineRig {
        var rig = MachineRig()
        var settings = rig.machine.core.settings
        settings.locale = locale
        let core = NodeCore(settings: settings, catalog: MachineRig.catalog, now: rig.now)
        let board = ButtonBoard(definitions: [
            ButtonDefinition(id: "top", source: .input(device: "/dev/input/event0", key: InputKey(code: 28)), press: press, double: double,
                hold: hold),
        ])
        rig.machine = NodeMachine(
            core: core, topics: MachineRig.topics, discovery: rig.machine.discovery, persisted: core.persistentState(), seed: 1,
            buttons: board, speech: SpeechSettings(confirmButtons: confirm))
        rig.step(.connected)
        return rig
    }

    @Test(arguments: [NodeLocale.en, .ko])
    func eachActionSaysWhatItDid(locale: NodeLocale) throws {
        var rig = Self.rig(locale: locale, press: .snooze, double: .noiseToggle, hold: .dismiss)
        let en = locale == .en
        _ = rig.command("style/set", #"{"use_24_hour": false}"#)
        _ = rig.command("alarm/add", #"{"id": "work", "time": "07:05", "label": "Work", "snooze_minutes": 9}"#)
        rig.advance(seconds: 30)
        rig.step(.wake)
        // 07:05 Berlin, ringing: the press snoozes until 07:14.
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .press)))) == [en ? "Snoozed until 7:14 AM" : "오전 7시 14분에 다시 울립니다"])
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .hold)))) == [en ? "Alarm off" : "알람을 껐습니다"])
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .double)))) == [en ? "Noise on" : "백색소음을 켰습니다"])
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .double)))) == [en ? "Noise off" : "백색소음을 껐습니다"])
        // Refused (nothing rings): no confirmation, the response says why.
        let refused = rig.step(.button(.gesture(button: "top", .hold)))
        #expect(speakRequests(refused).isEmpty)
        #expect(refused.json("noiseclock/bed/response")?["ok"] == false)
    }

    @Test func volumeLightRoutineTimerAndAnyCommand() throws {
        for (action, en, ko) in [
            (ButtonAction.volumeUp, "Volume 50", "볼륨 50"),
            (.lightToggle, "Light on", "조명을 켰습니다"),
            (.timer("nap"), "Timer set for 20 minutes", "20분 타이머를 시작했습니다"),
            (.command("noise/sound/set", payload: "pink"), "Done", "완료했습니다"),
        ] {
            for locale in [NodeLocale.en, .ko] {
                var rig = Self.rig(locale: locale, press: action)
                _ = rig.command("timer/presets/set", #"[{"id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"}]"#)
                let said = speakRequests(rig.step(.button(.gesture(button: "top", .press))))
                #expect(said == [locale == .en ? en : ko], "\(action) \(locale)")
            }
        }
        var rig = Self.rig(press: .routineToggle)
        _ = rig.command("routine/add", #"{"id": "bed", "label": "Bedtime", "start": "22:00", "sound": "brown"}"#)
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .press)))) == ["Bedtime started"])
        #expect(speakRequests(rig.step(.button(.gesture(button: "top", .press)))) == ["Bedtime stopped"])
        var ko = Self.rig(locale: .ko, press: .routineToggle)
        _ = ko.command("routine/add", #"{"id": "bed", "label": "잠자리", "start": "22:00", "sound": "brown"}"#)
        #expect(speakRequests(ko.step(.button(.gesture(button: "top", .press)))) == ["잠자리 루틴을 시작했습니다"])
    }

    @Test func onlyButtonsConfirmAndOnlyWhenAsked() {
        var rig = Self.rig(press: .noiseToggle)
        // The same command over MQTT: answered on ~/response, nothing said.
        let mqtt = rig.command("noise/set", "TOGGLE")
        #expect(mqtt.json("noiseclock/bed/response")?["ok"] == true && speakRequests(mqtt).isEmpty)
        // speak_time as a button's action speaks the time, once (no confirmation on top).
        var speaking = Self.rig(press: .speakTime)
        #expect(speakRequests(speaking.step(.button(.gesture(button: "top", .press)))).count == 1)
        var quiet = Self.rig(press: .noiseToggle, confirm: false)
        let pressed = quiet.step(.button(.gesture(button: "top", .press)))
        #expect(pressed.json("noiseclock/bed/response")?["ok"] == true && speakRequests(pressed).isEmpty)
    }

    @Test func durations() {
        #expect(ButtonConfirmation.duration(90, .en) == "1 minute 30 seconds")
        #expect(ButtonConfirmation.duration(45, .en) == "45 seconds")
        #expect(ButtonConfirmation.duration(60, .en) == "1 minute")
        #expect(ButtonConfirmation.duration(90, .ko) == "1분 30초")
        #expect(ButtonConfirmation.duration(1200, .ko) == "20분")
    }
}
