/// The wall-clock time an alarm rings at, to the minute. Stored and shown as `07:30`.
public struct AlarmTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// `07:30`.
    public var description: String { TimeText.pad(hour, 2) + ":" + TimeText.pad(minute, 2) }

    public static func < (lhs: AlarmTime, rhs: AlarmTime) -> Bool { (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute) }

    /// Accepts `07:30`, `7:30`, `19:30`, `07:30:00`, `7:30 AM`, `7:30am`, `AM 7:30`, `오전 7:30`,
    /// `오후 7:30`, `7:30 오후`. With a day period the hour is 1–12 (`12:00 AM` is midnight).
    public init?(parsing text: String) {
        var rest = text.trimmingWhitespace().lowercased()
        var afternoon: Bool?
        for (marker, isPM) in [("am", false), ("pm", true), ("a.m.", false), ("p.m.", true), ("오전", false), ("오후", true)] {
            if rest.hasPrefix(marker) {
                afternoon = isPM
                rest.removeFirst(marker.count)
                break
            }
            if rest.hasSuffix(marker) {
                afternoon = isPM
                rest.removeLast(marker.count)
                break
            }
        }
        rest = rest.trimmingWhitespace()
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[1].count == 2, parts.count == 2 || parts[2].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60
        else { return nil }
        if parts.count == 3 { guard parts[2] == "00" else { return nil } }
        if let afternoon {
            guard (1...12).contains(hour) else { return nil }
            self.init(hour: hour % 12 + (afternoon ? 12 : 0), minute: minute)
        } else {
            guard hour < 24 else { return nil }
            self.init(hour: hour, minute: minute)
        }
    }
}
