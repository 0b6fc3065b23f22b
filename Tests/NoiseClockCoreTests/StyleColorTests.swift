import Testing
@testable import NoiseClockCore

@Suite struct StyleColorTests {
    @Test(arguments: [
        ("#FFFFFF", "#FFFFFF"),
        ("#ffffff", "#FFFFFF"),
        ("#fFf", "#FFFFFF"),
        ("#000", "#000000"),
        ("#1a2B3c", "#1A2B3C"),
        ("#abc", "#AABBCC"),
        ("#7F0a09", "#7F0A09"),
    ])
    func parsesAndNormalisesHex(input: String, stored: String) {
        #expect(RGBColor(hex: input)?.hex == stored)
    }

    @Test(arguments: ["", "#", "FFFFFF", "#FFFF", "#FFFFF", "#FFFFFFF", "#GGGGGG", "#12345G", " #FFF", "#FFF ", "red", "#ＦＦＦ", "##FFF"])
    func refusesBadHex(input: String) {
        #expect(RGBColor(hex: input) == nil)
    }

    @Test(arguments: [
        ("#FFFFFF", "#000000", 21.0),
        ("#000000", "#FFFFFF", 21.0),
        ("#777777", "#FFFFFF", 4.48),
        ("#FFFFFF", "#777777", 4.48),
        ("#FFFFFF", "#FFFFFF", 1.0),
        ("#FF0000", "#FFFFFF", 4.0),
        ("#0000FF", "#FFFFFF", 8.59),
        ("#00FF00", "#000000", 15.3),
        ("#767676", "#FFFFFF", 4.54),
    ])
    func contrastOfKnownPairs(digits: String, background: String, ratio: Double) throws {
        let a = try #require(RGBColor(hex: digits)), b = try #require(RGBColor(hex: background))
        #expect(a.roundedContrastRatio(against: b) == ratio)
    }

    @Test(arguments: [(0 as UInt8, 0.0), (10, 0.0030353), (128, 0.2158605), (188, 0.5028865), (255, 1.0)])
    func linearisesChannelsLikeTheSRGBCurve(channel: UInt8, linear: Double) {
        #expect(abs(RGBColor.linear(channel) - linear) < 1e-6)
    }

    @Test func relativeLuminanceOfPrimaries() throws {
        #expect(RGBColor.white.relativeLuminance == 1.0)
        #expect(RGBColor.black.relativeLuminance == 0.0)
        #expect(abs(try #require(RGBColor(hex: "#00FF00")).relativeLuminance - 0.7152) < 1e-12)
    }
}
