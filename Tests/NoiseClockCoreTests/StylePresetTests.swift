import Testing
@testable import NoiseClockCore

@Suite struct StylePresetTests {
    @Test(arguments: [
        (CommandPayload.plain("night"), StylePreset.night),
        (.plain("NIGHT"), .night),
        (.plain("Day"), .day),
        (.plain(" day "), .day),
        (.json("night"), .night),
        (.json(["preset": "DAY", "request_id": 3]), .day),
    ])
    func readsPresetNames(payload: CommandPayload, preset: StylePreset) throws {
        #expect(try StylePreset(payload: payload) == preset)
    }

    @Test(arguments: [
        CommandPayload.empty, .plain("dusk"), .plain("nigh"), .plain("night mode"), .json(1), .json(["preset": 1]), .json([]),
        .json(["mode": "night"]),
    ])
    func refusesOtherPayloadsAsInvalidPreset(payload: CommandPayload) {
        #expect(throws: CommandError.invalidField("preset", "preset must be \"night\" or \"day\"")) {
            try StylePreset(payload: payload)
        }
    }

    @Test func nightIsWhiteOnBlackAndDayIsBlackOnWhite() throws {
        var style = try ClockStyle.defaults.merging(JSONObject([("digit_color", "#F80"), ("background_color", "#102030"), ("glow", 3)]))
        let day = StylePreset.day.applied(to: style)
        #expect(day.digitColor == .black && day.backgroundColor == .white)
        let night = StylePreset.night.applied(to: day)
        #expect(night.digitColor == .white && night.backgroundColor == .black)
        // Only the colours change.
        style.digitColor = .white
        style.backgroundColor = .black
        #expect(night == style)
        #expect(night.glow == 3)
    }
}
