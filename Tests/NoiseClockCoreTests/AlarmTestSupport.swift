#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import NoiseClockCore

/// Real zones from /usr/share/zoneinfo (tests may read files; the core may not).
enum AlarmTestZones {
    static let berlin = load("Europe/Berlin")
    static let newYork = load("America/New_York")
    static let lordHowe = load("Australia/Lord_Howe")
    static let kathmandu = load("Asia/Kathmandu")
    static let tokyo = load("Asia/Tokyo")

    static func named(_ name: String) -> ZoneRules {
        switch name {
        case "Europe/Berlin": berlin
        case "America/New_York": newYork
        case "Australia/Lord_Howe": lordHowe
        case "Asia/Kathmandu": kathmandu
        case "Asia/Tokyo": tokyo
        default: load(name)
        }
    }

    static func load(_ name: String) -> ZoneRules {
        guard let file = fopen("/usr/share/zoneinfo/" + name, "rb") else { fatalError("zoneinfo \(name) missing: install tzdata") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return try! ZoneRules(identifier: name, tzif: bytes)
    }
}

/// `2026-11-21T07:05:00+01:00` (or with `.250` milliseconds) to an instant; test input only.
func instant(_ iso: String) -> Instant {
    let utf8 = Array(iso.utf8)
    func number(_ from: Int, _ length: Int) -> Int { Int(String(decoding: utf8[from..<from + length], as: UTF8.self))! }
    let date = CivilDate(year: number(0, 4), month: number(5, 2), day: number(8, 2))
    var seconds = date.daysSinceEpoch * 86_400 + Int64(number(11, 2) * 3600 + number(14, 2) * 60 + number(17, 2))
    var index = 19
    var milliseconds: Int64 = 0
    if utf8[index] == UInt8(ascii: ".") {
        milliseconds = Int64(number(20, 3))
        index = 23
    }
    let sign: Int64 = utf8[index] == UInt8(ascii: "-") ? -1 : 1
    seconds -= sign * Int64(number(index + 1, 2) * 3600 + number(index + 4, 2) * 60)
    return Instant(milliseconds: seconds * 1000 + milliseconds)
}

let testCatalog = SoundCatalog(noise: [], alarm: [
    SoundCatalog.Entry(id: "classic", name: "Classic", category: "alarm"),
    SoundCatalog.Entry(id: "birds", name: "Birds", category: "nature"),
])

/// An alarms feature driven by hand: commands and a clock the test moves.
struct AlarmHarness {
    var feature = AlarmsFeature()
    var zone: ZoneRules
    var locale = NodeLocale.en
    var now: Instant
    var outbox: [Publication] = []

    init(zone: ZoneRules = AlarmTestZones.berlin, now: String) {
        self.zone = zone
        self.now = instant(now)
    }

    var context: FeatureContext { FeatureContext(now: now, zone: zone, locale: locale, catalog: testCatalog) }

    @discardableResult
    mutating func send(_ command: AlarmCommand, _ text: String = "") -> Result<JSONValue, CommandError> {
        let payload: CommandPayload
        do {
            payload = try CommandPayload.classify(Array(text.utf8))
        } catch {
            return .failure(error)
        }
        return feature.handle(command, payload, context: context, outbox: &outbox)
    }

    /// Adds an alarm and returns its id.
    mutating func add(_ json: String) -> String {
        guard case .success(let result) = send(.add, json), let id = result["id"]?.stringValue else {
            Issue.record("add failed: \(send(.add, json))")
            return ""
        }
        return id
    }

    /// Sets the clock and advances once.
    mutating func advance(to iso: String) { advance(to: instant(iso)) }

    mutating func advance(to instant: Instant) {
        now = instant
        feature.advance(context: context, outbox: &outbox)
    }

    /// Wakes at every deadline up to `iso` (as the node would), then at `iso` itself.
    mutating func run(until iso: String) {
        let limit = instant(iso)
        var steps = 0
        while let deadline = feature.nextDeadline(context: context), deadline <= limit, steps < 1000 {
            advance(to: max(deadline, now))
            steps += 1
        }
        if steps == 1000 { Issue.record("deadline never moved past \(now)") }
        advance(to: limit)
    }

    /// `event id` for each `~/alarm/event` so far, then clears the outbox.
    mutating func takeEvents() -> [String] {
        defer { outbox.removeAll() }
        return outbox.filter { $0.topic == "alarm/event" }.map { publication in
            guard case .json(let body) = publication.body else { return "?" }
            return "\(body["event"]?.stringValue ?? "?") \(body["id"]?.stringValue ?? "?")"
        }
    }

    func eventBodies(_ topic: String = "alarm/event") -> [JSONValue] {
        outbox.filter { $0.topic == topic }.compactMap { if case .json(let body) = $0.body { body } else { nil } }
    }

    var state: JSONValue { feature.stateJSON(context: context) }

    func alarm(_ id: String) -> JSONValue? {
        feature.alarmsJSON(context: context).arrayValue?.first { $0["id"]?.stringValue == id }
    }

    func nextTrigger(_ id: String) -> JSONValue? { alarm(id)?["next_trigger"] }
}
