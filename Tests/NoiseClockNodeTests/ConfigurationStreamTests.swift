import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// The `stream:` keys (issue 29): their defaults, `none` for a silent sleep-radio fallback, and
/// refusals that name the key (a `User-Agent` with a line break would add a header of its own).
@Suite("Configuration stream")
struct ConfigurationStreamTests {
    @Test func theDefaultsAndEveryKeyFromTheFile() async throws {
        let scratch = ConfigScratch()
        let defaults = try await NodeConfiguration.load(path: scratch.config(""), environment: [:], hostName: "x").configuration.stream
        #expect(defaults == StreamSettings(prerollSeconds: 30, timeoutSeconds: 5, fallbackNoise: "brown", caFile: nil,
                                           userAgent: "NoiseClock/\(NoiseClockVersion.current)"))
        let ca = scratch.write("radio-ca.pem", "-----BEGIN CERTIFICATE-----\n", mode: 0o644)
        let yaml = "stream:\n  preroll_seconds: 45\n  fallback_noise: none\n  ca_file: \(ca)\n"
            + "  user_agent: \"Bedside/2 (radio)\""
        let set = try await NodeConfiguration.load(path: scratch.config(yaml), environment: [:], hostName: "x").configuration.stream
        #expect(set == StreamSettings(prerollSeconds: 45, timeoutSeconds: 5, fallbackNoise: nil, caFile: ca,
                                      userAgent: "Bedside/2 (radio)"))
        let pink = try await NodeConfiguration.load(path: scratch.config(""), environment: ["NOISECLOCK_STREAM_FALLBACK_NOISE": "pink"],
                                                    hostName: "x").configuration.stream
        #expect(pink.fallbackNoise == "pink")
    }

    @Test("a bad stream key is refused, naming it", arguments: [
        ("stream:\n  preroll_seconds: 121", "stream.preroll_seconds", "must be between 0 and 120, got 121"),
        ("stream:\n  fallback_noise: rain_file", "stream.fallback_noise", "must be one of brown, pink, white, rain, ocean, fan or none"),
        ("stream:\n  user_agent: \"a\\r\\nX-Evil: 1\"", "stream.user_agent", "must be printable ASCII"),
        ("stream:\n  user_agent: \"\"", "stream.user_agent", "must be 1-200 characters"),
        ("stream:\n  ca_file: \"\"", "stream.ca_file", "must not be empty"),
        ("stream:\n  ca_file: /nonexistent/radio.pem", "stream.ca_file", "cannot read /nonexistent/radio.pem"),
    ])
    func refused(_ yaml: String, _ key: String, _ message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error.message)")
    }
}
