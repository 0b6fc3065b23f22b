/// A POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`), as found in a TZif v2+ footer: the rule
/// for every instant after the file's last transition. POSIX offsets count hours *west* of
/// UTC; everything stored here is seconds *east*, like TZif.
public struct PosixTZRule: Hashable, Sendable {
    /// When daylight time starts or ends within a year, in local wall time of the period it ends.
    public struct Transition: Hashable, Sendable {
        public enum Day: Hashable, Sendable {
            /// `Jn`: day 1...365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        public var day: Day
        /// Seconds after local midnight (may be negative or past 24 h, as TZif v3 allows).
        public var time: Int

        /// Seconds since the epoch of this transition's wall time in `year`, as if UTC.
        func localSeconds(in year: Int) -> Int64 {
            let jan1 = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
            let dayIndex: Int64
            switch day {
            case .julianNoLeap(let n):
                let leapShift = CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0
                dayIndex = Int64(n - 1 + leapShift)
            case .zeroBased(let n):
                dayIndex = Int64(n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                let firstWeekday = first.weekday.rawValue % 7 // Sunday -> 0
                var dom = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = CivilDate.daysIn(month: month, year: year)
                while dom > length { dom -= 7 }
                dayIndex = CivilDate(year: year, month: month, day: dom).daysSinceEpoch - jan1
            }
            return (jan1 + dayIndex) * 86_400 + Int64(time)
        }
    }

    public var standardOffset: Int
    public var standardName: String
    /// Daylight time, if the rule has any.
    public var daylight: Daylight?

    public struct Daylight: Hashable, Sendable {
        public var offset: Int
        public var name: String
        public var start: Transition
        public var end: Transition
    }

    /// Seconds east of UTC in force at `seconds` since the epoch.
    public func offset(at seconds: Int64) -> Int {
        guard let dst = daylight else { return standardOffset }
        let year = LocalDateTime(localSeconds: seconds + Int64(standardOffset)).year
        let start = dst.start.localSeconds(in: year) - Int64(standardOffset)
        let end = dst.end.localSeconds(in: year) - Int64(dst.offset)
        let inDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return inDaylight ? dst.offset : standardOffset
    }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let text: String
        public var description: String { "not a POSIX TZ rule: \"\(text)\"" }
    }

    /// Parses a POSIX TZ string. A DST name without rules takes the US rules (`M3.2.0,M11.1.0`).
    public init(_ text: String) throws(ParseError) {
        var scanner = Scanner(Array(text.utf8))
        let fail = ParseError(text: text)
        guard let stdName = scanner.name(), let stdWest = scanner.offset() else { throw fail }
        standardName = stdName
        standardOffset = -stdWest
        if scanner.atEnd { return }
        guard let dstName = scanner.name() else { throw fail }
        var dstOffset = standardOffset + 3600
        if let west = scanner.offset() { dstOffset = -west }
        var start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
        var end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        if !scanner.atEnd {
            guard scanner.take(UInt8(ascii: ",")), let s = scanner.transition(),
                  scanner.take(UInt8(ascii: ",")), let e = scanner.transition(), scanner.atEnd
            else { throw fail }
            start = s
            end = e
        }
        daylight = Daylight(offset: dstOffset, name: dstName, start: start, end: end)
    }
}

/// Reads the pieces of a POSIX TZ string.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// `CET` (three or more letters) or `<+0545>` (quoted).
    mutating func name() -> String? {
        if take(UInt8(ascii: "<")) {
            let start = index
            while let b = peek, b != UInt8(ascii: ">") { index += 1 }
            guard index > start, take(UInt8(ascii: ">")) else { return nil }
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        let start = index
        while let b = peek, (b | 0x20) >= UInt8(ascii: "a"), (b | 0x20) <= UInt8(ascii: "z") { index += 1 }
        guard index - start >= 3 else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func number() -> Int? {
        var value = 0
        var digits = 0
        while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9"), digits < 4 {
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds (sign as written).
    mutating func offset() -> Int? {
        let save = index
        var sign = 1
        if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
        guard let hours = number(), hours <= 167 else { index = save; return nil }
        var seconds = hours * 3600
        if take(UInt8(ascii: ":")) {
            guard let minutes = number(), minutes < 60 else { index = save; return nil }
            seconds += minutes * 60
            if take(UInt8(ascii: ":")) {
                guard let secs = number(), secs < 60 else { index = save; return nil }
                seconds += secs
            }
        }
        return sign * seconds
    }

    mutating func transition() -> PosixTZRule.Transition? {
        let day: PosixTZRule.Transition.Day
        if take(UInt8(ascii: "M")) {
            guard let m = number(), (1...12).contains(m), take(UInt8(ascii: ".")),
                  let w = number(), (1...5).contains(w), take(UInt8(ascii: ".")),
                  let d = number(), (0...6).contains(d)
            else { return nil }
            day = .monthWeekDay(month: m, week: w, weekday: d)
        } else if take(UInt8(ascii: "J")) {
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else {
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if take(UInt8(ascii: "/")) {
            guard let t = offset() else { return nil }
            time = t
        }
        return PosixTZRule.Transition(day: day, time: time)
    }
}
