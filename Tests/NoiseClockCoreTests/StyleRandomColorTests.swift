import Testing
@testable import NoiseClockCore

@Suite struct StyleRandomColorTests {
    static let backgrounds = [
        "#000000", "#FFFFFF", "#777777", "#757575", "#808080", "#FF0000", "#00FF00", "#0000FF", "#FFFF00",
        "#00FFFF", "#FF00FF", "#123456", "#FEDCBA", "#404040", "#C0C0C0", "#0F0", "#F0F",
    ].map { RGBColor(hex: $0)! }

    @Test(arguments: backgrounds)
    func alwaysReadableAgainstTheBackground(background: RGBColor) {
        for minute in Int64(29_000_000)..<29_002_000 {
            let color = RandomDigitColor.color(minute: minute, background: background)
            #expect(color.contrastRatio(against: background) >= 4.5, "minute \(minute): \(color) on \(background)")
        }
    }

    @Test func isAPureFunctionOfMinuteAndBackground() {
        for minute in Int64(-5)..<200 {
            #expect(RandomDigitColor.color(minute: minute, background: .black) == RandomDigitColor.color(minute: minute, background: .black))
        }
    }

    @Test func changesFromMinuteToMinute() {
        let colors = (Int64(29_000_000)..<29_000_120).map { RandomDigitColor.color(minute: $0, background: .black) }
        #expect(Set(colors).count > 60)
        let repeats = zip(colors, colors.dropFirst()).filter { $0 == $1 }.count
        #expect(repeats < 5)
    }

    @Test(arguments: [
        (Int64(0), Int64(0)), (59_999, 0), (60_000, 1), (1_763_705_100_000, 29_395_085), (-1, -1), (-60_000, -1), (-60_001, -2),
    ])
    func minuteIndexFloorsToTheMinute(milliseconds: Int64, minute: Int64) {
        #expect(RandomDigitColor.minuteIndex(of: Instant(milliseconds: milliseconds)) == minute)
    }

    @Test func hsvPrimaries() {
        #expect(RandomDigitColor.hsvColor(hue: 0, saturation: 1) == RGBColor(red: 255, green: 0, blue: 0))
        #expect(RandomDigitColor.hsvColor(hue: 120, saturation: 1) == RGBColor(red: 0, green: 255, blue: 0))
        #expect(RandomDigitColor.hsvColor(hue: 240, saturation: 1) == RGBColor(red: 0, green: 0, blue: 255))
        #expect(RandomDigitColor.hsvColor(hue: 60, saturation: 0.5) == RGBColor(red: 255, green: 255, blue: 128))
    }
}
