import Foundation
import Testing
import NoiseClockCore
import NoiseClockPlatform

/// The zone engine against glibc for every zone in /usr/share/zoneinfo: the UTC offset at every
/// hour of 2025–2030 and one second before, at and after every transition.
///
/// glibc's side comes from `zdump -i` (glibc's own zdump, which sets `TZ` and calls `localtime_r`
/// in its process): calling `setenv("TZ")` + `localtime_r` here instead would race with every
/// test that reads the environment or starts a process (the child inherits `TZ`), and no lock
/// taken by this test alone can prevent that.
@Suite struct ZoneRulesGlibcTests {
    static let zoneinfo = "/usr/share/zoneinfo"
    static let start = Int64(CivilDate(year: 2025, month: 1, day: 1).daysSinceEpoch) * 86_400
    static let end = Int64(CivilDate(year: 2031, month: 1, day: 1).daysSinceEpoch) * 86_400

    @Test(.enabled(if: FileManager.default.fileExists(atPath: zoneinfo) && FileManager.default.fileExists(atPath: "/usr/bin/zdump")))
    func everyZoneAgreesWithGlibc() async throws {
        let names = GlibcZones.names(in: Self.zoneinfo)
        #expect(names.count > 300, "found only \(names.count) zones")
        // A year on each side, so the first and last offsets are glibc's too; two zdump processes
        // at once (each takes about a second).
        let half = (names.count + 1) / 2
        async let first = GlibcZones.zdump(Array(names[..<half]), fromYear: 2024, toYear: 2032)
        async let second = GlibcZones.zdump(Array(names[half...]), fromYear: 2024, toYear: 2032)
        let glibc = try await first.merging(try await second) { one, _ in one }
        // The parse must have found transitions, or the ±1 s checks would pass vacuously.
        // (About 70 zones keep DST, 12 transitions each in these six years.)
        let inRange = glibc.values.reduce(0) { count, zone in count + zone.transitions.count { $0.at >= Self.start && $0.at < Self.end } }
        #expect(inRange > 500, "only \(inRange) transitions in 2025–2030")
        let loader = ZoneLoader(zoneinfoDirectory: Self.zoneinfo, timezoneFile: "/nonexistent", localtimeLink: "/nonexistent", tzVariable: nil)

        // Two halves in parallel: the engine is pure, and CI has two cores.
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for slice in [names[..<half], names[half...]] {
                group.addTask {
                    var found: [String] = []
                    for name in slice {
                        let expected = try #require(glibc[name], "zdump said nothing about \(name)")
                        found += Self.compare(try loader.loadNamed(name), with: expected)
                    }
                    return found
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements, first: \(mismatches.prefix(20).joined(separator: "; "))")
    }

    @Test func zdumpLinesParse() {
        let zones = GlibcZones.parse("""

            TZ="Europe/Berlin"
            -\t-\t+01\tCET
            2025-03-30\t03\t+02\tCEST\t1

            TZ="Australia/Lord_Howe"
            -\t-\t+11\t\t1
            2025-04-06\t01:30\t+1030
            """)
        #expect(zones["Europe/Berlin"]?.initial == 3600)
        #expect(zones["Europe/Berlin"]?.transitions.map(\.at) == [ZoneRulesRealZoneTests.utc(2025, 3, 30, 1, 0).seconds])
        #expect(zones["Australia/Lord_Howe"]?.initial == 39600)
        #expect(zones["Australia/Lord_Howe"]?.transitions.map(\.offset) == [37800])
        #expect(zones["Australia/Lord_Howe"]?.transitions.map(\.at) == [ZoneRulesRealZoneTests.utc(2025, 4, 5, 15, 0).seconds])
    }

    @Test func aDisagreementIsReported() {
        let glibc = GlibcZones.Offsets(initial: 3600, transitions: [(at: Self.start + 86_400, offset: 7200)])
        let found = Self.compare(ZoneRules(identifier: "Fixed", fixedOffset: 3600), with: glibc)
        #expect(found.count == 5)  // capped per zone
        #expect(found.first == "Fixed at \(Self.start + 86_400): engine 3600, glibc 7200")
    }

    /// Every hour of 2025–2030, then each glibc transition in that range ±1 s. glibc's offset is
    /// followed along the hours rather than looked up, as this loop runs 50,000 times per zone.
    static func compare(_ engine: ZoneRules, with glibc: GlibcZones.Offsets) -> [String] {
        var found: [String] = []
        func record(_ instant: Int64, _ ours: Int, _ theirs: Int) {
            if found.count < 5 { found.append("\(engine.identifier) at \(instant): engine \(ours), glibc \(theirs)") }
        }
        let transitions = glibc.transitions
        var next = 0
        var theirs = glibc.initial
        var instant = start
        while instant < end {
            while next < transitions.count, transitions[next].at <= instant {
                theirs = transitions[next].offset
                next += 1
            }
            let ours = engine.offset(at: instant)
            if ours != theirs { record(instant, ours, theirs) }
            instant += 3600
        }
        for transition in transitions where transition.at >= start && transition.at < end {
            for instant in transition.at - 1...transition.at + 1 {
                let ours = engine.offset(at: instant)
                let theirs = glibc.offset(at: instant)
                if ours != theirs { record(instant, ours, theirs) }
            }
        }
        return found
    }
}

/// What glibc says about the zones, read from `zdump -i` (one process for all zones).
enum GlibcZones {
    struct Offsets: Sendable {
        let initial: Int
        /// Sorted: from `at` (UTC seconds) on, `offset` is in force.
        let transitions: [(at: Int64, offset: Int)]

        func offset(at instant: Int64) -> Int {
            // Last transition at or before `instant` (binary search; few per zone).
            var low = 0
            var high = transitions.count
            while low < high {
                let mid = (low + high) / 2
                if transitions[mid].at <= instant { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? initial : transitions[low - 1].offset
        }
    }

    /// Every TZif file under `directory`, by name, skipping `posix/` and `right/` (copies and
    /// leap-second variants), files that are not TZif and files with the same bytes as one kept.
    static func names(in directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var seen: Set<Data> = []
        var names: [String] = []
        for case let relative as String in walker {
            if relative == "posix" || relative == "right" || relative.hasPrefix("posix/") || relative.hasPrefix("right/") { continue }
            if relative == "localtime" || relative == "posixrules" { continue }  // aliases of others
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: path), data.starts(with: Array("TZif".utf8)) else { continue }
            if seen.insert(data).inserted { names.append(relative) }
        }
        return names.sorted()
    }

    static func zdump(_ names: [String], fromYear: Int, toYear: Int) throws -> [String: Offsets] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
        process.arguments = ["-i", "-c", "\(fromYear),\(toYear)"] + names
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return parse(String(decoding: output, as: UTF8.self))
    }

    /// `TZ="Europe/Berlin"`, then `-<TAB>-<TAB>+01<TAB>CET` (the offset at the start), then one line
    /// per transition: the local date and time just after it and the new offset
    /// (`2025-03-30<TAB>03<TAB>+02<TAB>CEST<TAB>1`).
    static func parse(_ text: String) -> [String: Offsets] {
        var zones: [String: Offsets] = [:]
        var name: String?
        var initial = 0
        var transitions: [(at: Int64, offset: Int)] = []
        func flush() {
            if let name { zones[name] = Offsets(initial: initial, transitions: transitions) }
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("TZ=\"") {
                flush()
                name = String(line.dropFirst(4).dropLast())
                transitions = []
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let offset = seconds(fields[2]) else { continue }
            if fields[0] == "-" {
                initial = offset
                continue
            }
            let date = fields[0].split(separator: "-").compactMap { Int($0) }
            let time = fields[1].split(separator: ":").compactMap { Int64($0) }
            guard date.count == 3, !time.isEmpty else { continue }
            let days = Int64(CivilDate(year: date[0], month: date[1], day: date[2]).daysSinceEpoch)
            let clock = time[0] * 3600 + (time.count > 1 ? time[1] * 60 : 0) + (time.count > 2 ? time[2] : 0)
            transitions.append((at: days * 86_400 + clock - Int64(offset), offset: offset))
        }
        flush()
        return zones
    }

    /// `+01`, `-0330`, `+053045` → seconds east of UTC.
    static func seconds(_ text: Substring) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.count >= 2, digits.count % 2 == 0, digits.allSatisfy(\.isNumber) else { return nil }
        var value = 0
        for (index, unit) in [3600, 60, 1].enumerated() where index * 2 < digits.count {
            value += Int(String(digits[index * 2...index * 2 + 1]))! * unit
        }
        return sign == "-" ? -value : value
    }
}
