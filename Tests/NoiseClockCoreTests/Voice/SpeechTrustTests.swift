import Testing
@testable import NoiseClockCore

/// Issue 31, findings 1 and 3, in the machine: `say`'s 1–300 characters are Unicode scalars (and
/// bytes), bounded before anything else (a 102 KB payload is `payload_too_large`), and the text
/// eSpeak NG gets holds no control character (its embedded commands).
@Suite struct SpeechTrustTests {
    func speakRequests(_ effects: [NodeEffect]) -> [SpeechRequest] {
        effects.compactMap { if case .speak(let request) = $0 { request } else { nil } }
    }

    func refusal(_ effects: [NodeEffect]) -> JSONValue? { effects.json("noiseclock/bed/response")?["error"] }

    /// One grapheme cluster, thousands of scalars: 21,000 Hangul leading consonants (63 KB) or an
    /// emoji ZWJ chain. Before the fix both were "1 character" and spoken.
    @Test(arguments: [
        String(repeating: "\u{1100}", count: 21_000),
        String(repeating: "\u{1100}", count: 301),
        "👩" + String(repeating: "\u{200D}👩", count: 160),
        String(repeating: "e\u{301}", count: 151),
    ])
    func sayCountsScalarsNotGraphemeClusters(text: String) throws {
        var rig = MachineRig()
        rig.step(.connected)
        #expect(text.count <= 151, "the attack: few grapheme clusters")
        for payload in [text, JSONValue.object(JSONObject([("text", .string(text))])).serialized] {
            let effects = rig.command("say", payload)
            #expect(speakRequests(effects).isEmpty)
            let error = try #require(refusal(effects))
            #expect(error["code"] == "invalid_field" && error["field"] == "text", "\(error.serialized)")
            #expect(error["message"]?.stringValue?.hasPrefix("text must be 1–300 characters, got ") == true)
        }
    }

    @Test func threeHundredScalarsAreSpokenAndThreeHundredAndOneAreNot() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let most = String(repeating: "가", count: 300)  // 900 bytes, 300 scalars
        #expect(speakRequests(rig.command("say", most)).map(\.text) == [most])
        #expect(speakRequests(rig.command("say", most + "나")).isEmpty)
    }

    /// Over MQTT the 64 KiB bound comes first, as for every command: 102 KB of U+1100 (which
    /// spoke for 1,848 s before) is `payload_too_large`, and never parsed.
    @Test func aPayloadOver64KiBIsTooLargeBeforeItIsRead() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("say", String(repeating: "\u{1100}", count: 34_000))
        #expect(speakRequests(effects).isEmpty)
        #expect(refusal(effects)?["code"] == "payload_too_large")
    }

    /// Every other stated length follows the same rule (`TextLength`): alarm and timer labels,
    /// descriptions, routine labels, mix names.
    @Test(arguments: [
        ("alarm/add", #"{"time": "07:00", "label": ""#, "label"),
        ("alarm/add", #"{"time": "07:00", "description": ""#, "description"),
        ("routine/add", #"{"start": "22:00", "end": "06:00", "label": ""#, "label"),
        ("timer/start", #"{"minutes": 5, "label": ""#, "label"),
        ("mix/set", #"{"id": "calm", "layers": [{"sound": "brown"}, {"sound": "pink"}], "name": ""#, "name"),
    ])
    func everyStatedLengthIsCountedInScalars(topic: String, head: String, field: String) throws {
        var rig = MachineRig()
        rig.step(.connected)
        let payload = head + String(repeating: "\u{1100}", count: 257) + "\"}"
        let error = try #require(refusal(rig.command(topic, payload)), "\(topic) was accepted")
        #expect(error["code"] == "invalid_field" && error["field"] == .string(field), "\(topic): \(error.serialized)")
    }

    @Test func textLengthBoundsBytesThenScalars() {
        let length = TextLength(1...3)
        #expect(length.maxBytes == 12)
        #expect(length.measure("abc") == 3)
        #expect(length.measure("\u{1100}\u{1100}\u{1100}") == 3)
        #expect(length.measure("\u{1100}\u{1100}\u{1100}\u{1100}") == nil)
        #expect(length.measure("") == nil)
        #expect(TextLength(atMost: 2).measure("") == 0)
    }

    /// `\u{1}300A` is eSpeak NG's embedded command for "amplitude 300" (7.4 dB over the 0–100
    /// volume); `S`, `P`, `H` set speed, pitch, emphasis. The text it gets has no control character.
    @Test(arguments: [
        ("\u{01}300A hello", "300A hello"),
        ("\u{01}50S\u{01}99P hello", "50S99P hello"),
        ("good\nnight\r\n\tsleep", "good night   sleep"),
        ("a\u{1B}[31mb\u{7F}c\u{85}d\u{9B}e", "a[31mbc de"),
        ("<speak>hi</speak> [[h@l'oU]]", "<speak>hi</speak> [[h@l'oU]]"),
    ])
    func controlCharactersNeverReachESpeak(text: String, spoken: String) throws {
        #expect(SpeechText.clean(text) == spoken)
        var rig = MachineRig()
        rig.step(.connected)
        let request = try #require(speakRequests(rig.command("say", JSONValue.object(JSONObject([("text", .string(text))])).serialized)).first)
        #expect(request.text == spoken.trimmingWhitespace())
        #expect(request.volume == 70)
    }

    @Test func onlyControlCharactersIsNoText() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.command("say", #"{"text": "\u0001\u0002 \u001b"}"#)
        #expect(speakRequests(effects).isEmpty)
        #expect(refusal(effects)?["field"] == "text")
    }
}
