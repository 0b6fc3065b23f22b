import Testing
@testable import NoiseClockCore

/// The audio and speech sensors never show `unavailable` or `unknown`: Home Assistant reserves
/// those states for an entity it cannot reach or has no value for, and draws them alike. The
/// node's real payloads for every status go through the sensor's `value_template`, rendered as
/// Home Assistant would; each gives one of the sensor's `options`.
@Suite struct HomeAssistantStatusSensorTests {
    typealias F = HomeAssistantFixtures

    static let reserved: Set<String> = ["unavailable", "unknown"]

    /// Every status each topic can carry, from the core types that publish them.
    static let payloads: [(object: String, statuses: [JSONValue])] = [
        ("audio_status", AudioStatus.State.allCases.map { AudioStatus(device: "default", state: $0, error: "x").json }),
        ("speech_status", [nil, "no eSpeak NG voice"].map { error -> JSONValue in
            guard case .json(let body) = SpeechStatus(voice: "en", error: error).publication.body else { return .null }
            return body
        }),
    ]

    @Test(arguments: payloads.map(\.object))
    func theSensorShowsEveryStatusAsOneOfItsOptions(object: String) throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "sensor", object))
        let options = try #require(config["options"]?.arrayValue).compactMap(\.stringValue)
        let template = try #require(config["value_template"]?.stringValue)
        let statuses = try #require(Self.payloads.first { $0.object == object }?.statuses)
        var shown: Set<String> = []
        for payload in statuses {
            let state = try Self.render(template, payload)
            #expect(!Self.reserved.contains(state), "\(object): \(payload["status"]?.stringValue ?? "") is shown as \(state)")
            #expect(options.contains(state), "\(object): \(state) is not among \(options)")
            shown.insert(state)
        }
        #expect(shown == Set(options), "\(object): options no status gives")
        #expect(options.allSatisfy { !Self.reserved.contains($0) })
    }

    @Test func theWordsShownForUnavailable() throws {
        let configs = HomeAssistantDiscovery.configs(F.context())
        let audio = try #require(F.config(configs, "sensor", "audio_status"))
        let speech = try #require(F.config(configs, "sensor", "speech_status"))
        #expect(try Self.render(#require(audio["value_template"]?.stringValue), ["status": "unavailable"]) == "No sound device")
        #expect(try Self.render(#require(speech["value_template"]?.stringValue), ["status": "unavailable"]) == "No voice")
        #expect(audio["options"] == ["ok", "No sound device"] && speech["options"] == ["ok", "No voice"])
    }

    /// Renders the two value-template forms the status sensors may use, `{{ value_json.k }}` and
    /// `{{ 'a' if value_json.k == 'b' else <term> }}`; anything else throws, so a new form fails
    /// here instead of being guessed at.
    static func render(_ template: String, _ payload: JSONValue) throws -> String {
        guard let body = template.wholeMatch(of: /\{\{\s*(.+?)\s*\}\}/)?.1 else { throw TemplateError(template) }
        if let match = body.wholeMatch(of: /(.+?) if value_json\.(\w+) == '([^']*)' else (.+)/) {
            let chosen = payload[String(match.2)]?.stringValue == String(match.3) ? match.1 : match.4
            return try term(String(chosen), payload, template)
        }
        return try term(String(body), payload, template)
    }

    static func term(_ text: String, _ payload: JSONValue, _ template: String) throws -> String {
        if let literal = text.wholeMatch(of: /'([^']*)'/) { return String(literal.1) }
        if let key = text.wholeMatch(of: /value_json\.(\w+)/), let value = payload[String(key.1)]?.stringValue { return value }
        throw TemplateError(template)
    }

    struct TemplateError: Error, CustomStringConvertible {
        let description: String
        init(_ template: String) { description = "a template form this test does not render: \(template)" }
    }
}
