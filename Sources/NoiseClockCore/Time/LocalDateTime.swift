/// A wall-clock reading in some zone: what a person sees on the clock face.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var weekday: Weekday

    /// The weekday is derived from the date.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        year = date.year
        month = date.month
        day = date.day
        self.hour = hour
        self.minute = minute
        self.second = second
        weekday = date.weekday
    }

    /// The reading `seconds` after 1970-01-01T00:00:00 on the same wall clock (no zone involved).
    init(localSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        self.init(date: CivilDate(daysSinceEpoch: days), hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    public var date: CivilDate { CivilDate(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00:00 on this wall clock, as if it were UTC.
    var localSeconds: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// `YYYY-MM-DDTHH:MM:SS` (no offset).
    public var description: String {
        date.description + "T" + TimeText.pad(hour, 2) + ":" + TimeText.pad(minute, 2) + ":" + TimeText.pad(second, 2)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.localSeconds < rhs.localSeconds }
}

/// How a wall-clock reading maps onto instants in a zone.
public enum LocalResolution: Hashable, Sendable {
    /// The reading happens exactly once.
    case unique(Instant)
    /// A spring-forward change skips the reading; `after` is the first instant after the gap
    /// (02:30 on Berlin's spring-forward night resolves to 03:00 CEST).
    case gap(after: Instant)
    /// A fall-back change repeats the reading: both instants, earlier first.
    case overlap(first: Instant, second: Instant)

    /// The instant an alarm set to this reading rings: the unique one, the end of a gap, or the
    /// first of two.
    public var alarmInstant: Instant {
        switch self {
        case .unique(let instant): instant
        case .gap(let after): after
        case .overlap(let first, _): first
        }
    }
}
