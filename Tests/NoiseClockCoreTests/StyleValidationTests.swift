import Testing
@testable import NoiseClockCore

@Suite struct StyleValidationTests {
    static let goodValues: [(String, JSONValue)] = [
        ("use_24_hour", false), ("show_seconds", true), ("show_ampm", false),
        ("digit_color", "#abc"), ("digit_color", "#00ff7f"), ("background_color", "#123456"),
        ("glow", 0), ("glow", 100), ("glow", 37.0), ("auto_fit", false),
        ("scale", 0), ("scale", 100), ("digit_opacity", 0), ("digit_opacity", 100),
        ("overlay_opacity", 0), ("overlay_opacity", 100), ("random_color", true),
        ("font_family", "system"), ("font_family", "san_francisco"), ("font_family", "monaco"), ("font_family", "courier"),
        ("font_weight", "ultra_light"), ("font_weight", "thin"), ("font_weight", "light"), ("font_weight", "regular"),
        ("font_weight", "medium"), ("font_weight", "semibold"), ("font_weight", "bold"), ("font_weight", "heavy"),
        ("font_weight", "black"),
        ("font_design", "default"), ("font_design", "serif"), ("font_design", "rounded"), ("font_design", "monospaced"),
        ("show_battery", false), ("show_date", false), ("keep_awake", true), ("face_light", false),
    ]

    @Test(arguments: goodValues)
    func acceptsGoodValue(key: String, value: JSONValue) throws {
        let style = try ClockStyle.defaults.merging(JSONObject([(key, value)]))
        let published = try #require(style.json.objectValue)
        let expected: JSONValue =
            switch value {
            case .string(let text) where key.hasSuffix("_color"): .string(RGBColor(hex: text)!.hex)
            case .double(let number): .int(Int64(number))
            default: value
            }
        #expect(published[key] == expected)
    }

    static let badValues: [(String, JSONValue)] = [
        ("use_24_hour", "true"), ("use_24_hour", 1), ("use_24_hour", nil),
        ("show_seconds", 0), ("show_seconds", "false"), ("show_ampm", "yes"), ("show_ampm", []),
        ("digit_color", "#GGG"), ("digit_color", "white"), ("digit_color", 16_777_215), ("digit_color", "#FFFF"),
        ("background_color", "000000"), ("background_color", nil),
        ("glow", -1), ("glow", 101), ("glow", 50.5), ("glow", "50"), ("glow", true),
        ("auto_fit", "on"), ("scale", -1), ("scale", 101), ("scale", nil),
        ("digit_opacity", -1), ("digit_opacity", 101), ("digit_opacity", 0.5),
        ("overlay_opacity", -1), ("overlay_opacity", 101), ("overlay_opacity", [50]),
        ("random_color", 1), ("random_color", "true"),
        ("font_family", "System"), ("font_family", "sanFrancisco"), ("font_family", "helvetica"), ("font_family", 1),
        ("font_weight", "UltraLight"), ("font_weight", "ultralight"), ("font_weight", "normal"), ("font_weight", 400),
        ("font_design", "Default"), ("font_design", "mono"), ("font_design", nil),
        ("show_battery", "false"), ("show_date", 0), ("keep_awake", "true"),
        ("colour", "#FFF"), ("digitColor", "#FFF"), ("Use_24_Hour", true), ("", true),
    ]

    @Test(arguments: badValues)
    func refusesBadValueNamingTheField(key: String, value: JSONValue) {
        do {
            _ = try ClockStyle.defaults.merging(JSONObject([(key, value)]))
            Issue.record("accepted \(key) = \(value)")
        } catch {
            #expect(error.code == .invalidField)
            #expect(error.field == key)
        }
    }

    @Test func oneBadFieldRejectsTheWholeSetAndChangesNothing() {
        let object = JSONObject([("use_24_hour", false), ("glow", 10), ("font_weight", "bolder"), ("keep_awake", true)])
        #expect(throws: CommandError.invalidField("font_weight",
            "font_weight must be one of: ultra_light, thin, light, regular, medium, semibold, bold, heavy, black")) {
            try ClockStyle.defaults.merging(object)
        }
    }

    @Test func mergesOnlyTheGivenFields() throws {
        var start = ClockStyle()
        start.glow = 20
        start.fontFamily = .monaco
        let merged = try start.merging(JSONObject([("show_seconds", true), ("digit_color", "#f00")]))
        var expected = start
        expected.showSeconds = true
        expected.digitColor = RGBColor(red: 255, green: 0, blue: 0)
        #expect(merged == expected)
    }

    @Test func ignoresRequestIDAndReadOnlyOutputFields() throws {
        var changed = ClockStyle()
        changed.glow = 5
        // A client may send back exactly what it read from ~/style.
        var echoed = try #require(changed.json.objectValue)
        echoed["request_id"] = "r1"
        #expect(try ClockStyle.defaults.merging(echoed) == changed)
        #expect(try ClockStyle.defaults.merging(JSONObject()) == .defaults)
    }

    @Test func publishesEveryFieldInContractOrderWithContrast() {
        #expect(ClockStyle.defaults.json.serialized == """
            {"use_24_hour":true,"show_seconds":false,"show_ampm":true,"digit_color":"#FFFFFF","background_color":"#000000",\
            "glow":50,"auto_fit":true,"scale":100,"digit_opacity":100,"overlay_opacity":50,"random_color":false,\
            "font_family":"system","font_weight":"regular","font_design":"default","show_battery":true,"show_date":true,\
            "keep_awake":false,"face_light":true,"contrast_ratio":21,"warnings":[]}
            """)
    }

    @Test func warnsBelowFourAndAHalf() throws {
        let grey = try ClockStyle.defaults.merging(JSONObject([("digit_color", "#777777"), ("background_color", "#FFFFFF")]))
        #expect(grey.json["contrast_ratio"] == .double(4.48))
        let warnings = try #require(grey.json["warnings"]?.arrayValue)
        #expect(warnings.count == 1)
        #expect(warnings.first?.stringValue?.contains("4.48") == true)

        let readable = try ClockStyle.defaults.merging(JSONObject([("digit_color", "#767676"), ("background_color", "#FFFFFF")]))
        #expect(readable.json["contrast_ratio"] == .double(4.54))
        #expect(readable.json["warnings"] == [])
    }

    @Test func lenientRestoreKeepsGoodFieldsAndDefaultsBadOnes() {
        let restored = ClockStyle(lenient: JSONObject([
            ("glow", 12), ("scale", 500), ("digit_color", "#00F"), ("font_design", "gothic"), ("mystery", true),
        ]))
        var expected = ClockStyle()
        expected.glow = 12
        expected.digitColor = RGBColor(red: 0, green: 0, blue: 255)
        #expect(restored == expected)
    }
}
