import Testing
@testable import NoiseClockCore

@Suite struct ButtonPanelTests {
    let enter = InputKey("KEY_ENTER")!
    let power = InputKey("KEY_POWER")!

    /// Binary fractions, so deadlines are exact sums.
    let timing = ButtonTiming(holdSeconds: 1.0, doubleSeconds: 0.25)

    func panel() -> ButtonPanel {
        ButtonPanel(bindings: [
            .init(button: "top", key: enter, detector: GestureDetector(timing: timing)),
            .init(button: "side", key: power, detector: GestureDetector(timing: timing, detectsDouble: false, detectsHold: false)),
        ])
    }

    @Test func keyNamesAndNumbers() {
        #expect(InputKey("KEY_ENTER")?.code == 28)
        #expect(InputKey("BTN_0")?.code == 0x100)
        #expect(InputKey("28")?.name == "KEY_ENTER")
        #expect(InputKey("KEY_HANGUEL")?.name == "KEY_HANGEUL")
        #expect(InputKey(code: 0x2ff).name == "KEY_767")
        #expect(InputKey("key_enter") == nil)
        #expect(InputKey("KEY_NOPE") == nil)
        #expect(InputKey("768") == nil)
        #expect(InputKey("-1") == nil)
    }

    @Test func recordsRoundTrip() {
        let event = InputEvent.key(enter, 2)
        #expect(event.record.count == 24)
        #expect(InputEvent(record: event.record) == event)
        #expect(InputEvent(record: InputEvent(type: 4, code: 4, value: -7).record).value == -7)
    }

    @Test func eachKeyDrivesItsOwnButton() {
        var panel = panel()
        #expect(panel.handle(.key(power, 1), at: 1.0) == [.gesture(button: "side", .press)])
        #expect(panel.handle(.key(enter, 1), at: 1.0) == [])
        #expect(panel.handle(.key(enter, 0), at: 1.125) == [])
        #expect(panel.deadline == 1.375)
        #expect(panel.expire(at: 1.375) == [.gesture(button: "top", .press)])
    }

    @Test func otherTypesAndUnboundKeysPassBy() {
        var panel = panel()
        #expect(panel.handle(InputEvent(type: 0, code: 0, value: 0), at: 1.0) == [])
        #expect(panel.handle(InputEvent(type: 4, code: 4, value: 28), at: 1.0) == [])
        #expect(panel.handle(.key(InputKey(code: 30), 1), at: 1.0) == [])
    }

    @Test func learnModeReportsEveryKeyDownUntilItEnds() {
        var panel = panel()
        panel.learningUntil = 31.0
        #expect(panel.handle(.key(InputKey(code: 30), 1), at: 1.0) == [.learned(InputKey(code: 30))])
        #expect(panel.handle(.key(InputKey(code: 30), 2), at: 1.1) == [])
        #expect(panel.handle(.key(InputKey(code: 30), 0), at: 1.2) == [])
        #expect(panel.handle(.key(power, 1), at: 2.0) == [.learned(power), .gesture(button: "side", .press)])
        #expect(panel.handle(.key(InputKey(code: 30), 1), at: 31.0) == [])
        #expect(panel.learningUntil == nil)
    }

    @Test func actionsByName() {
        #expect(ButtonAction("snooze_or_speak") == .snoozeOrSpeak)
        #expect(ButtonAction("timer:nap") == .timer("nap"))
        #expect(ButtonAction("timer:") == nil)
        #expect(ButtonAction("Snooze") == nil)
        #expect(ButtonAction.volumeDown.description == "volume_down")
        #expect(ButtonAction.command("noise/set", payload: "TOGGLE").description == "command:noise/set")
    }

    @Test func mqttGesturesFromAFieldADottedFieldOrThePlainPayload() {
        let board = ButtonBoard(definitions: [
            ButtonDefinition(id: "z", source: .mqtt(MQTTButtonSource(topic: "zigbee2mqtt/b", field: "action"))),
            ButtonDefinition(id: "t", source: .mqtt(MQTTButtonSource(
                topic: "stat/bed/RESULT", field: "Button1.Action", values: [.press: "SINGLE", .double: "DOUBLE", .hold: "HOLD"]))),
            ButtonDefinition(id: "p", source: .mqtt(MQTTButtonSource(topic: "plain", field: nil))),
        ])
        func gestures(_ topic: String, _ payload: String) -> [String] {
            board.gestures(topic: topic, payload: Array(payload.utf8)).map { "\($0.button):\($0.gesture.rawValue)" }
        }
        #expect(gestures("zigbee2mqtt/b", #"{"action": "double", "battery": 90}"#) == ["z:double"])
        #expect(gestures("zigbee2mqtt/b", #"{"battery": 90}"#).isEmpty)
        #expect(gestures("zigbee2mqtt/b", "not json").isEmpty)
        #expect(gestures("stat/bed/RESULT", #"{"Button1": {"Action": "HOLD"}}"#) == ["t:hold"])
        #expect(gestures("stat/bed/RESULT", #"{"POWER": "ON"}"#).isEmpty)
        #expect(gestures("plain", " single\n") == ["p:press"])
        #expect(gestures("other", "single").isEmpty)
        #expect(board.mqttTopics == ["zigbee2mqtt/b", "stat/bed/RESULT", "plain"])
    }
}
