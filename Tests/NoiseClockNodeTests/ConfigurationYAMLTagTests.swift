import Foundation
import Testing
import NoiseClockCore
@testable import NoiseClockNode

/// The hand-written implicit typing (`YAMLTag.resolve`) against the regular expressions of Yams'
/// `Resolver.default`, which decided these tags before: same tag for every text tried.
@Suite struct ConfigurationYAMLTagTests {
    /// Yams 6.2.2, Sources/Yams/Resolver.swift, in its order.
    static let rules: [(String, String)] = [
        (YAMLTag.bool, "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
        (YAMLTag.int, "^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"),
        (YAMLTag.float, "^(?:[-+]?(?:[0-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?|"
            + "[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
        (YAMLTag.merge, "^(?:<<)$"),
        (YAMLTag.null, "^(?:~|null|Null|NULL|)$"),
        (YAMLTag.timestamp, "^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \\t]+)"
            + "[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"),
        (YAMLTag.value, "^(?:=)$"),
    ]

    static let expressions = rules.map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }

    static func yamsTag(_ text: String) -> String {
        let range = NSRange(text.startIndex..., in: text)
        for (tag, expression) in expressions where expression.firstMatch(in: text, range: range) != nil { return tag }
        return YAMLTag.str
    }

    static let examples = [
        "", "~", "null", "NULL", "nULL", "yes", "Yes", "yES", "on", "OFF", "y", "n", "true", "0", "-0", "+0", "00", "07", "08",
        "0o17", "0o", "0o8", "0b101", "0b", "0b2", "0x1F", "0x", "0xg", "-0x1f", "1_000", "_1", "1_", "1:30", "1:3", "1:60",
        "1:5:", "190:20:30", "0:30", "1:30.5", "1.5", "1.", ".5", ".", "1e5", "1e", "1e+5", "1E-5", ".5e5", ".5e+5", ".inf",
        "-.Inf", ".NaN", "+.nan", "<<", "=", "2025-01-01", "2025-1-1", "2025-01-01T07:00:00Z", "2025-01-01 07:00:00",
        "2025-01-01t7:00:00.5 +01:00", "2025-01-01T07:00:00 ", "2025-01-01T07:00:00+1", "2025-01-01T07:00:00-01:0",
        "2025-01-01  \t07:00:00.123Z", "1883", "8883", "48000", "3.1.1", "5", "broker.lan", "home/clocks", "plughw:1,0",
        "\u{212A}", "１２", "٣",
    ]

    @Test("the same tag as Yams for chosen texts", arguments: examples)
    func chosen(text: String) {
        #expect(YAMLTag.resolve(plain: text) == Self.yamsTag(text), "\(text.debugDescription)")
    }

    @Test("the same tag as Yams for 200,000 random texts of number-like characters")
    func random() {
        let alphabet = Array("0123456789_:.-+eExXbBoOTtZ \tinfINFanNA<=~15")
        var generator = SplitMix64(seed: 2025)
        var disagreements: [String] = []
        for _ in 0..<200_000 {
            let length = Int(generator.next() % 12)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            if YAMLTag.resolve(plain: text) != Self.yamsTag(text) { disagreements.append(text.debugDescription) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
    }

    @Test("integers read as Yams read them", arguments: [
        ("1883", 1883), ("+5", 5), ("-5", -5), ("0", 0), ("1_883", 1883), ("0x50", 80), ("-0x50", -80), ("0b101", 5),
        ("0o17", 15), ("017", 15), ("1:30", 90), ("-1:30", -90), ("190:20:30", 685_230),
    ])
    func integers(text: String, value: Int) {
        #expect(YAMLScalar(string: text, tag: YAMLTag.int, isPlain: true).integer == value)
    }

    @Test("not integers: -0 (Yams read \"-\" in base 8), overflow, quoted", arguments: ["-0", "99999999999999999999", "1:0:0:0:0:0:0:0:0:0:0:0:0"])
    func notIntegers(text: String) {
        #expect(YAMLScalar(string: text, tag: YAMLTag.int, isPlain: true).integer == nil)
    }
}
