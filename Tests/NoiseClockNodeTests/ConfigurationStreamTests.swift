import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// The `stream:` keys (issue 29): their defaults, `none` for a silent sleep-radio fallback, and
/// refusals that name the key (a `User-Agent` with a line break would add a header of its own);
/// v1.4's `directory_url` (the station directory, `none` for off).
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
        // v1.4: the station directory, Radio Browser unless set; `none` turns it off.
        #expect(defaults.directoryURL == "https://all.api.radio-browser.info")
        let directory = try await NodeConfiguration.load(path: scratch.config("stream:\n  directory_url: http://127.0.0.1:8123/"),
                                                         environment: [:], hostName: "x").configuration.stream
        #expect(directory.directoryURL == "http://127.0.0.1:8123/")
        let off = try await NodeConfiguration.load(path: scratch.config("stream:\n  directory_url: none"), environment: [:],
                                                   hostName: "x").configuration.stream
        #expect(off.directoryURL == nil)
    }

    @Test("a bad stream key is refused, naming it", arguments: [
        ("stream:\n  preroll_seconds: 121", "stream.preroll_seconds", "must be between 0 and 120, got 121"),
        ("stream:\n  fallback_noise: rain_file", "stream.fallback_noise", "must be one of brown, pink, white, rain, ocean, fan or none"),
        ("stream:\n  user_agent: \"a\\r\\nX-Evil: 1\"", "stream.user_agent", "must be printable ASCII"),
        ("stream:\n  user_agent: \"\"", "stream.user_agent", "must be 1-200 characters"),
        ("stream:\n  ca_file: \"\"", "stream.ca_file", "must not be empty"),
        ("stream:\n  ca_file: /nonexistent/radio.pem", "stream.ca_file", "cannot read /nonexistent/radio.pem"),
        ("stream:\n  directory_url: ftp://radio.example/", "stream.directory_url", "must be an http:// or https:// address"),
        ("stream:\n  directory_url: \"https://radio.example/?x=1\"", "stream.directory_url", "without spaces, query or fragment"),
        ("stream:\n  directory_url: \"\"", "stream.directory_url", "must be an http:// or https:// address"),
        ("stream:\n  directory_url: 5", "stream.directory_url", "got \"5\""),
    ])
    func refused(_ yaml: String, _ key: String, _ message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error.message)")
    }
}
