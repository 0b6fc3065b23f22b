import Testing
@testable import NoiseClockNode

/// `web.allowed_hosts` (issue 18): the configuration's one list key.
@Suite("Configuration allowed hosts") struct ConfigurationAllowedHostsTests {
    @Test("a YAML list, or the variable comma-separated; lower-cased; empty by default")
    func listFromFileAndEnvironment() async throws {
        let scratch = ConfigScratch()
        let empty = try await NodeConfiguration.load(path: scratch.config(""), environment: [:], hostName: "x")
        #expect(empty.configuration.web.allowedHosts == [])
        let path = scratch.config("web:\n  allowed_hosts: [Clock.Home.Example, proxy.lan]\n")
        let file = try await NodeConfiguration.load(path: path, environment: [:], hostName: "x")
        #expect(file.configuration.web.allowedHosts == ["clock.home.example", "proxy.lan"])
        let block = scratch.config("web:\n  allowed_hosts:\n    - a.lan\n")
        #expect(try await NodeConfiguration.load(path: block, environment: [:], hostName: "x").configuration.web.allowedHosts == ["a.lan"])
        let environment = ["NOISECLOCK_WEB_ALLOWED_HOSTS": " b.lan, c.example ,"]
        let overridden = try await NodeConfiguration.load(path: path, environment: environment, hostName: "x")
        #expect(overridden.configuration.web.allowedHosts == ["b.lan", "c.example"])
    }

    @Test("a scalar, a mapping item, a port or a scheme is an error naming the key", arguments: [
        ("web:\n  allowed_hosts: clock.home.example\n", [:], "web.allowed_hosts: expected a list of strings"),
        ("web:\n  allowed_hosts: [{a: b}]\n", [:], "web.allowed_hosts: expected a list of strings"),
        ("web:\n  allowed_hosts: [clock.home.example:8080]\n", [:], "web.allowed_hosts: each item must be a host name"),
        ("", ["NOISECLOCK_WEB_ALLOWED_HOSTS": "http://clock"], "(from NOISECLOCK_WEB_ALLOWED_HOSTS)"),
    ] as [(String, [String: String], String)])
    func refused(_ yaml: String, _ environment: [String: String], _ expected: String) async throws {
        let scratch = ConfigScratch()
        do {
            _ = try await NodeConfiguration.load(path: scratch.config(yaml), environment: environment, hostName: "x")
            Issue.record("accepted \(yaml.debugDescription)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
