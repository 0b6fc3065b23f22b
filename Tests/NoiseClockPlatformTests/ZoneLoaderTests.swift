import Testing
import NoiseClockCore
@testable import NoiseClockPlatform

@Suite struct ZoneLoaderTests {
    @Test(arguments: ["../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "", "Europe/Ber lin", "Europe\\Berlin"])
    func refusesNamesThatAreNotZoneNames(name: String) {
        #expect(throws: ZoneLoader.Error.invalidName(name.trimmingWhitespace())) { try ZoneLoader.load(name) }
    }

    @Test func unknownNameIsAClearError() {
        #expect(throws: ZoneLoader.Error.unknownZone("Mars/Olympus_Mons")) { try ZoneLoader.load("Mars/Olympus_Mons") }
        #expect(ZoneLoader.Error.unknownZone("Mars/Olympus_Mons").description.contains("unknown time zone"))
    }

    @Test func aNonTZifFileIsMalformed() {
        // zone1970.tab lives in the zoneinfo directory but is a text table.
        #expect(throws: ZoneLoader.Error.self) { try ZoneLoader.load("zone1970.tab") }
    }

    @Test func namedZoneKeepsItsIdentifier() throws {
        #expect(try ZoneLoader.load("Asia/Kathmandu").identifier == "Asia/Kathmandu")
    }

    @Test func systemPrefersTheTZVariable() throws {
        let loader = ZoneLoader(timezoneFile: "/nonexistent", localtimeLink: "/nonexistent", tzVariable: ":Asia/Tokyo")
        let zone = try loader.load("system")
        #expect(zone.identifier == "Asia/Tokyo")
        #expect(zone.offset(at: 0) == 32400)
    }

    @Test func systemAcceptsAPosixTZVariable() throws {
        let loader = ZoneLoader(timezoneFile: "/nonexistent", localtimeLink: "/nonexistent", tzVariable: "CET-1CEST,M3.5.0,M10.5.0/3")
        let zone = try loader.load("system")
        // 2026-07-01T00:00Z is summer time.
        #expect(zone.offset(at: CivilDate(year: 2026, month: 7, day: 1).daysSinceEpoch * 86_400) == 7200)
    }

    @Test func systemFallsBackToTheLocaltimeLinkThenUTC() throws {
        let viaLink = ZoneLoader(timezoneFile: "/nonexistent", localtimeLink: "/etc/localtime", tzVariable: nil)
        if let target = FileBytes.linkTarget("/etc/localtime"), let name = ZoneLoader.nameAfterZoneinfo(target) {
            #expect(try viaLink.load("system").identifier == name)
        }
        let nothing = ZoneLoader(timezoneFile: "/nonexistent", localtimeLink: "/nonexistent", tzVariable: nil)
        #expect(try nothing.load("system") == .utc)
    }

    @Test func systemReadsEtcTimezone() throws {
        let loader = ZoneLoader(localtimeLink: "/nonexistent", tzVariable: nil)
        let expected = FileBytes.contents(of: "/etc/timezone").map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() }
        if let expected, !expected.isEmpty {
            #expect(try loader.load("system").identifier == expected)
        }
    }

    @Test(arguments: [
        ("/usr/share/zoneinfo/Europe/Berlin", "Europe/Berlin"),
        ("../usr/share/zoneinfo/posix/America/New_York", "America/New_York"),
        ("/etc/somewhere", nil),
    ])
    func namesZonesFromLinkTargets(path: String, name: String?) {
        #expect(ZoneLoader.nameAfterZoneinfo(path) == name)
    }
}
