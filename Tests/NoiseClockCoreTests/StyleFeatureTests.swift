import Testing
@testable import NoiseClockCore

@Suite struct StyleFeatureTests {
    /// 2026-11-21 07:05:00 UTC, on a minute boundary.
    static let start = Instant(seconds: 1_763_708_700)

    static func context(_ now: Instant = start) -> FeatureContext {
        FeatureContext(now: now, zone: .utc, locale: .en, catalog: .empty)
    }

    static func command(_ command: StyleCommand, _ text: String) -> FeatureMessage<StyleCommand> {
        FeatureMessage(command, text)
    }

    static func error(_ result: Result<JSONValue, CommandError>) -> CommandError? {
        if case .failure(let error) = result { error } else { nil }
    }

    static func published(_ feature: StyleFeature, at now: Instant = start) -> JSONValue? {
        let publications = feature.retained(context: context(now))
        guard publications.count == 1, let publication = publications.first, publication.topic == "style",
            publication.retain, publication.qos == 1, case .json(let value) = publication.body
        else { return nil }
        return value
    }

    @Test func startsWithDefaultsAndPublishesThem() {
        let feature = StyleFeature(restoring: nil, now: Self.start)
        #expect(feature.style == .defaults)
        #expect(Self.published(feature) == ClockStyle.defaults.json)
        #expect(feature.nextDeadline(context: Self.context()) == nil)
        #expect(feature.use24Hour && !feature.showSeconds && feature.showAMPM)
    }

    @Test func setChangesOnlyGivenFieldsAndAnswersWithThePublishedStyle() throws {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        var outbox: [Publication] = []
        let result = feature.handle(Self.command(.set, #"{"use_24_hour": false, "show_seconds": true, "request_id": "a"}"#),
                                    context: Self.context(), outbox: &outbox)
        #expect(!feature.use24Hour && feature.showSeconds && feature.showAMPM)
        #expect(try result.get() == Self.published(feature))
        #expect(try result.get()["glow"] == 50)
        #expect(outbox.isEmpty)
    }

    @Test(arguments: [
        (#"{"glow": 20, "scale": 101}"#, "scale"),
        (#"{"glow": 20, "shadow": 5}"#, "shadow"),
        (#"{"keep_awake": "true"}"#, "keep_awake"),
    ])
    func refusedSetChangesNothing(payload: String, field: String) {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        let before = feature
        var outbox: [Publication] = []
        let result = feature.handle(Self.command(.set, payload), context: Self.context(), outbox: &outbox)
        #expect(Self.error(result)?.field == field)
        #expect(Self.error(result)?.code == .invalidField)
        #expect(feature == before)
        #expect(outbox.isEmpty)
    }

    @Test(arguments: ["", "night", "[1]"])
    func setTakesOnlyAnObject(payload: String) {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        var outbox: [Publication] = []
        guard case .failure(let error) = feature.handle(Self.command(.set, payload), context: Self.context(), outbox: &outbox) else {
            Issue.record("accepted \(payload)")
            return
        }
        #expect(error.code == .invalidJSON)
        #expect(feature == StyleFeature(restoring: nil, now: Self.start))
    }

    @Test func settingTheSameValuesChangesNothing() {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        let before = (feature.persistent, feature.retained(context: Self.context()))
        var outbox: [Publication] = []
        _ = feature.handle(Self.command(.set, ##"{"digit_color": "#fff", "glow": 50}"##), context: Self.context(), outbox: &outbox)
        _ = feature.handle(Self.command(.preset, "Night"), context: Self.context(), outbox: &outbox)
        #expect(feature.persistent == before.0)
        #expect(feature.retained(context: Self.context()) == before.1)
    }

    @Test func presetsSwitchColours() {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        var outbox: [Publication] = []
        _ = feature.handle(Self.command(.preset, "DAY"), context: Self.context(), outbox: &outbox)
        #expect(Self.published(feature)?["digit_color"] == "#000000")
        #expect(Self.published(feature)?["background_color"] == "#FFFFFF")
        let bad = feature.handle(Self.command(.preset, "dusk"), context: Self.context(), outbox: &outbox)
        #expect(Self.error(bad)?.code == .invalidField)
        #expect(feature.style.backgroundColor == .white)
    }

    @Test func randomColourChangesEachMinuteAndKeepsTheUsersColour() throws {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        var outbox: [Publication] = []
        _ = feature.handle(Self.command(.set, ##"{"digit_color": "#336699", "background_color": "#101010"}"##),
                           context: Self.context(), outbox: &outbox)

        let now = Self.start.adding(seconds: 10)
        _ = feature.handle(Self.command(.set, #"{"random_color": true}"#), context: Self.context(now), outbox: &outbox)
        let background = try #require(RGBColor(hex: "#101010"))
        let minute = RandomDigitColor.minuteIndex(of: now)
        let first = RandomDigitColor.color(minute: minute, background: background)
        #expect(Self.published(feature)?["digit_color"] == .string(first.hex))
        #expect(feature.persistent?["style"]?["digit_color"] == "#336699")
        #expect(feature.persistent?["style"]?["random_color"] == true)
        #expect(feature.nextDeadline(context: Self.context(now)) == Self.start.adding(seconds: 60))

        // Nothing is due within the minute.
        let sameMinute = feature
        feature.advance(context: Self.context(Self.start.adding(seconds: 59)), outbox: &outbox)
        #expect(feature == sameMinute)

        // The next minute brings the next colour; the stored style does not move.
        let next = Self.start.adding(seconds: 60)
        feature.advance(context: Self.context(next), outbox: &outbox)
        let second = RandomDigitColor.color(minute: minute + 1, background: background)
        #expect(Self.published(feature, at: next)?["digit_color"] == .string(second.hex))
        #expect(first != second)
        #expect(feature.persistent?["style"]?["digit_color"] == "#336699")
        #expect(feature.nextDeadline(context: Self.context(next)) == Self.start.adding(seconds: 120))
        #expect(outbox.isEmpty)

        // Turning random off brings the user's colour back.
        _ = feature.handle(Self.command(.set, #"{"random_color": false}"#), context: Self.context(next), outbox: &outbox)
        #expect(Self.published(feature, at: next)?["digit_color"] == "#336699")
        #expect(feature.nextDeadline(context: Self.context(next)) == nil)
        #expect(feature.randomPick == nil)
    }

    @Test func randomColourFollowsANewBackgroundAtOnce() throws {
        var feature = StyleFeature(restoring: ["version": 1, "style": ["random_color": true]], now: Self.start)
        var outbox: [Publication] = []
        let minute = RandomDigitColor.minuteIndex(of: Self.start)
        #expect(feature.randomPick?.color == RandomDigitColor.color(minute: minute, background: .black))
        _ = feature.handle(Self.command(.preset, "day"), context: Self.context(), outbox: &outbox)
        let pick = try #require(feature.randomPick)
        #expect(pick.color == RandomDigitColor.color(minute: minute, background: .white))
        #expect(pick.color.contrastRatio(against: .white) >= 4.5)
    }

    @Test func staleRandomPickIsDueAtOnce() {
        let feature = StyleFeature(restoring: ["version": 1, "style": ["random_color": true]], now: Self.start)
        let later = Self.start.adding(seconds: 185)
        #expect(feature.nextDeadline(context: Self.context(later)) == later)
    }

    @Test func persistsAndRestoresEveryField() throws {
        var feature = StyleFeature(restoring: nil, now: Self.start)
        var outbox: [Publication] = []
        _ = feature.handle(Self.command(.set, """
            {"use_24_hour": false, "show_seconds": true, "show_ampm": false, "digit_color": "#a0b", "background_color": "#010203",
             "glow": 1, "auto_fit": false, "scale": 2, "digit_opacity": 3, "overlay_opacity": 4, "random_color": false,
             "font_family": "courier", "font_weight": "black", "font_design": "serif", "show_battery": false, "show_date": false,
             "keep_awake": true}
            """), context: Self.context(), outbox: &outbox)
        let document = try #require(feature.persistent)
        #expect(document["version"] == 1)
        let reparsed = try JSONParser().parse(document.serialized)
        let restored = StyleFeature(restoring: reparsed, now: Self.start)
        #expect(restored == feature)
        #expect(restored.style.fontWeight == .black && restored.style.digitColor == RGBColor(hex: "#AA00BB"))
    }

    @Test(arguments: [
        JSONValue.null, "garbage", [1, 2], ["version": 2, "style": ["glow": 1]], ["style": ["glow": 1]],
        ["version": 1], ["version": 1, "style": "x"], ["version": "1", "style": ["glow": 1]],
    ])
    func restoringGarbageGivesDefaults(document: JSONValue) {
        #expect(StyleFeature(restoring: document, now: Self.start).style == .defaults)
    }

    @Test func restoringKeepsGoodFieldsNextToBadOnes() {
        let feature = StyleFeature(restoring: ["version": 1, "style": ["glow": 7, "scale": "big", "digit_color": "#zzz"]], now: Self.start)
        var expected = ClockStyle()
        expected.glow = 7
        #expect(feature.style == expected)
    }
}
