/// ISO 8601 with offset (`2026-11-21T07:05:00+01:00`) for `stops_at`.
/// (Kept local to the noise feature until the core has a shared formatter.)
enum NoiseTimestamp {
    static func iso(_ instant: Instant, zone: ZoneRules) -> String {
        let offset = zone.offset(at: instant.seconds)
        let local = instant.seconds + Int64(offset)
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secondOfDay = local - days * 86400
        let (y, m, d) = civil(fromDays: days)
        let sign = offset < 0 ? "-" : "+"
        let off = abs(offset) / 60
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
            + "\(sign)\(pad(Int64(off / 60), 2)):\(pad(Int64(off % 60), 2))"
    }

    /// Howard Hinnant's days-to-civil algorithm.
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
