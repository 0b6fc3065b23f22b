import Testing
@testable import NoiseClockCore

/// The speech commands in the machine: the text is decided from the node's time, locale, style
/// and alarms; the command is answered once the adapter says how long the speech is.
@Suite struct SpeechMachineTests {
    func speakRequests(_ effects: [NodeEffect]) -> [SpeechRequest] {
        effects.compactMap { if case .speak(let request) = $0 { request } else { nil } }
    }

    @Test func speakTimeSaysTheLocalTimeAndIsAnsweredWhenSpoken() throws {
        var rig = MachineRig()
        rig.step(.connected)
        // 06:04:30 UTC is 07:04 in Berlin, a Saturday; the default style is 24-hour.
        let effects = rig.command("speak/time", "")
        let request = try #require(speakRequests(effects).first)
        #expect(request.text == "It's 7:04, Saturday" && request.volume == 70)
        #expect(effects.published("noiseclock/bed/response").isEmpty)
        let answered = rig.step(.spoken(SpeechOutcome(id: request.id, result: .success(1.8333))))
        let response = try #require(answered.json("noiseclock/bed/response"))
        #expect(response["ok"] == true && response["command"] == "speak/time")
        #expect(response["result"] == ["text": "It's 7:04, Saturday", "seconds": 1.83])
        // Answered once: a second outcome for the same id changes nothing.
        #expect(rig.step(.spoken(SpeechOutcome(id: request.id, result: .success(1)))).published("noiseclock/bed/response").isEmpty)
    }

    @Test func twelveHourStyleAndTheNextAlarm() throws {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("style/set", #"{"use_24_hour": false}"#)
        #expect(speakRequests(rig.command("speak/time", "")).first?.text == "It's 7:04 AM, Saturday")
        #expect(speakRequests(rig.command("speak/next_alarm", "")).first?.text == "No alarm is set")
        _ = rig.command("alarm/add", #"{"id": "work", "time": "06:45", "repeat": "weekdays", "label": "Work"}"#)
        #expect(speakRequests(rig.command("speak/next_alarm", "")).first?.text == "Next alarm: Monday at 6:45 AM, Work")
        // Now is Saturday 07:04 in Berlin: 07:30 is later today, Sunday's 06:50 is tomorrow.
        _ = rig.command("alarm/add", #"{"id": "sunday", "time": "06:50", "repeat": ["sun"], "label": "Church"}"#)
        #expect(speakRequests(rig.command("speak/next_alarm", "")).first?.text == "Next alarm: tomorrow at 6:50 AM, Church")
        _ = rig.command("alarm/add", #"{"id": "late", "time": "07:30", "label": "Late"}"#)
        #expect(speakRequests(rig.command("speak/next_alarm", "")).first?.text == "Next alarm: today at 7:30 AM, Late")
    }

    @Test func sayTakesTextOrJSONAndRefusesBadPayloads() throws {
        var rig = MachineRig()
        rig.step(.connected)
        #expect(speakRequests(rig.command("say", "  Good night ")).first == SpeechRequest(id: 1, text: "Good night", volume: 70))
        #expect(speakRequests(rig.command("say", #"{"text": "Hi", "volume": 30}"#)).first == SpeechRequest(id: 2, text: "Hi", volume: 30))
        // Plain text that starts with a quote or a bracket is text (the contract: plain text, or an object).
        #expect(speakRequests(rig.command("say", #""Hi" she said"#)).first == SpeechRequest(id: 3, text: #""Hi" she said"#, volume: 70))
        #expect(speakRequests(rig.command("say", "[aside] good night")).first == SpeechRequest(id: 4, text: "[aside] good night", volume: 70))
        for (payload, code, field) in [
            ("", "invalid_field", "text"), (String(repeating: "a", count: 301), "invalid_field", "text"),
            (#"{"text": "Hi", "volume": 101}"#, "invalid_field", "volume"), (#"{"words": "Hi"}"#, "invalid_field", "words"),
            ("{not json", "invalid_json", nil),
        ] {
            let effects = rig.command("say", payload)
            #expect(speakRequests(effects).isEmpty)
            let error = try #require(effects.json("noiseclock/bed/response")?["error"])
            #expect(error["code"] == .string(code) && error["field"] == (field.map { .string($0) } ?? .null), "\(payload)")
            // Messages are for people: the bounds in words, never a Swift value's debug text.
            let message = try #require(error["message"]?.stringValue)
            #expect(!message.contains("TextLength") && !message.contains("ClosedRange"), "\(message)")
            if field == "text" { #expect(message.contains("1–300 characters"), "\(message)") }
        }
    }

    @Test func aFailureOrSpeechOffIsSpeechUnavailable() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let request = try #require(speakRequests(rig.command("say", "Hello")).first)
        let failed = rig.step(.spoken(SpeechOutcome(id: request.id, result: .failure(SpeechFailure("no eSpeak NG voice \"xx\"")))))
        #expect(failed.json("noiseclock/bed/response")?["error"]?["code"] == "speech_unavailable")

        var off = MachineRig()
        off.machine = NodeMachine(
            core: off.machine.core, topics: MachineRig.topics, discovery: off.machine.discovery, persisted: [:], seed: 1,
            speech: SpeechSettings(enabled: false))
        off.step(.connected)
        let effects = off.command("speak/time", "")
        #expect(speakRequests(effects).isEmpty)
        #expect(effects.json("noiseclock/bed/response")?["error"]?["code"] == "speech_unavailable")
    }

    /// `~/audio` unavailable: the words could not be heard, so the speech commands are refused
    /// as the failsafe and the readiness check name it (`audio_unavailable`), and nothing is spoken.
    @Test func speechIsRefusedWhileTheSoundDeviceIsUnavailable() throws {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(.audio(AudioStatus(device: "hw:0", state: .unavailable, error: "No such file or directory")))
        for (suffix, payload) in [("say", "Hello"), ("speak/time", ""), ("speak/next_alarm", "")] {
            let effects = rig.command(suffix, payload)
            #expect(speakRequests(effects).isEmpty, "\(suffix)")
            let response = try #require(effects.json("noiseclock/bed/response"))
            #expect(response["ok"] == false && response["command"] == .string(suffix))
            #expect(response["error"]?["code"] == "audio_unavailable")
            #expect(response["error"]?["message"]?.stringValue?.hasSuffix("No such file or directory") == true)
        }
        // The device back: speech is made again.
        rig.step(.audio(AudioStatus(device: "hw:0", state: .ok)))
        #expect(speakRequests(rig.command("say", "Hello")).map(\.text) == ["Hello"])
    }

    /// Alarm `speak_time`: the time and the label are said as the ring starts and again when it
    /// rings after a snooze, at the instants the test's clock gives; an alarm without it is silent.
    @Test func aSpeakTimeAlarmSaysTheTimeAndLabelAtEachRing() throws {
        var rig = MachineRig()
        rig.step(.connected)
        // Now is 07:04:30 in Berlin: the alarm is 30 s ahead.
        let added = rig.command("alarm/add", #"{"id": "work", "time": "07:05", "label": "Work", "speak_time": true}"#)
        #expect(added.json("noiseclock/bed/response")?["result"]?["speak_time"] == true)
        #expect(speakRequests(added).isEmpty)
        rig.advance(seconds: 29)
        #expect(speakRequests(rig.step(.wake)).isEmpty)
        rig.advance(seconds: 1)
        let fired = rig.step(.wake)
        #expect(fired.json("noiseclock/bed/alarm")?["state"] == "ringing")
        let first = try #require(speakRequests(fired).first)
        #expect(speakRequests(fired).count == 1 && first.text == "It's 7:05. Work" && first.volume == 70)
        // The ring's sound goes to the audio first; the voice is laid over it.
        let play = try #require(fired.index { if case .play = $0 { true } else { false } })
        #expect(play < fired.index { if case .speak = $0 { true } else { false } }!)
        // Its outcome answers no command.
        #expect(rig.step(.spoken(SpeechOutcome(id: first.id, result: .success(1.2)))).published("noiseclock/bed/response").isEmpty)
        // Still ringing a minute later: nothing more is said.
        rig.advance(seconds: 60)
        #expect(speakRequests(rig.step(.wake)).isEmpty)
        // Snoozed (9 minutes): nothing said on the snooze, the time again when it rings at 07:15.
        #expect(speakRequests(rig.command("alarm/snooze", "")).isEmpty)
        rig.advance(seconds: 9 * 60 - 1)
        #expect(speakRequests(rig.step(.wake)).isEmpty)
        rig.advance(seconds: 1)
        let again = rig.step(.wake)
        #expect(again.json("noiseclock/bed/alarm")?["state"] == "ringing")
        #expect(speakRequests(again).map(\.text) == ["It's 7:15. Work"])
        #expect(speakRequests(rig.command("alarm/dismiss", "")).isEmpty)

        // Without speak_time (the default), a ring says nothing.
        _ = rig.command("alarm/add", #"{"id": "quiet", "time": "07:20", "label": "Quiet"}"#)
        rig.advance(seconds: 5 * 60)
        let quiet = rig.step(.wake)
        #expect(quiet.json("noiseclock/bed/alarm")?["state"] == "ringing")
        #expect(speakRequests(quiet).isEmpty)
    }

    /// `~/speech` (retained): from the settings at start (the files' check, or speech off), then
    /// from what each utterance came to, published only when it changes.
    @Test func speechStatusFollowsTheSettingsAndEachUtterance() throws {
        var rig = MachineRig()
        let connected = rig.step(.connected)
        let status = try #require(connected.published("noiseclock/bed/speech").last)
        #expect(status.retain && status.text == #"{"status":"ok","voice":"en","error":null}"#)
        let request = try #require(speakRequests(rig.command("say", "Hello")).first)
        let failed = rig.step(.spoken(SpeechOutcome(id: request.id, result: .failure(SpeechFailure("eSpeak NG could not start")))))
        #expect(failed.published("noiseclock/bed/speech").map(\.text) == [#"{"status":"unavailable","voice":"en","error":"eSpeak NG could not "#
            + #"start"}"#])
        #expect(failed.json("noiseclock/bed/response")?["error"]?["code"] == "speech_unavailable")
        // The same failure again changes nothing; a success brings it back.
        let next = try #require(speakRequests(rig.command("say", "Hello")).first)
        #expect(rig.step(.spoken(SpeechOutcome(id: next.id, result: .failure(SpeechFailure("eSpeak NG could not start")))))
            .published("noiseclock/bed/speech").isEmpty)
        let last = try #require(speakRequests(rig.command("say", "Hello")).first)
        #expect(rig.step(.spoken(SpeechOutcome(id: last.id, result: .success(0.5)))).json("noiseclock/bed/speech")?["status"] == "ok")

        for (settings, expected) in [
            (SpeechSettings(enabled: false, voice: "ko"), #"{"status":"unavailable","voice":"ko","error":"speech is off (speech.enabled: false)"}"#),
            (SpeechSettings(voice: "xx", problem: "no eSpeak NG voice \"xx\""),
                #"{"status":"unavailable","voice":"xx","error":"no eSpeak NG voice \"xx\""}"#),
        ] {
            var other = MachineRig()
            other.machine = NodeMachine(
                core: other.machine.core, topics: MachineRig.topics, discovery: other.machine.discovery, persisted: [:], seed: 1, speech: settings)
            #expect(other.step(.connected).published("noiseclock/bed/speech").map(\.text) == [expected])
        }
    }
}
