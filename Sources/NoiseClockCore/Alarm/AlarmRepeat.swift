/// The weekdays a repeating alarm rings on; empty means once.
public struct AlarmRepeat: Hashable, Sendable {
    public private(set) var days: Set<Weekday>

    public init(_ days: Set<Weekday> = []) { self.days = days }

    public static let once = AlarmRepeat()
    public static let daily = AlarmRepeat(Set(Weekday.allCases))
    public static let weekdays = AlarmRepeat([.mon, .tue, .wed, .thu, .fri])
    public static let weekends = AlarmRepeat([.sat, .sun])

    public var isOnce: Bool { days.isEmpty }
    public var sortedDays: [Weekday] { days.sorted() }

    /// The stored form: `["mon", "wed"]`, Monday first.
    public var json: JSONValue { .array(sortedDays.map { .string($0.code) }) }

    /// A list of weekday codes, or one of `daily`, `weekdays`, `weekends`, `never` (also `once`).
    public init(parsing value: JSONValue) throws(CommandError) {
        switch value {
        case .string(let text):
            switch text.trimmingWhitespace().lowercased() {
            case "daily", "every day", "everyday": self = .daily
            case "weekdays": self = .weekdays
            case "weekends": self = .weekends
            case "never", "once", "": self = .once
            case let other:
                guard let day = Weekday(code: other) else {
                    throw .invalidField("repeat", "repeat must be a list of mon…sun or daily, weekdays, weekends, never; got \"\(text.prefix(32))\"")
                }
                self.init([day])
            }
        case .array(let items):
            var days = Set<Weekday>()
            for item in items {
                guard let code = item.stringValue, let day = Weekday(code: code.trimmingWhitespace()) else {
                    throw .invalidField("repeat", "repeat list items must be weekday codes mon…sun")
                }
                days.insert(day)
            }
            self.init(days)
        default:
            throw .invalidField("repeat", "repeat must be a list of weekday codes or a word like daily, got \(value.typeName)")
        }
    }

    /// `Once`, `Every day`, `Weekdays`, `Weekends`, `Every Monday`, `Mon, Wed, Fri` (and Korean).
    public func text(_ locale: NodeLocale) -> String {
        switch (self, locale) {
        case (.once, .en): return "Once"
        case (.once, .ko): return "한 번"
        case (.daily, .en): return "Every day"
        case (.daily, .ko): return "매일"
        case (.weekdays, .en): return "Weekdays"
        case (.weekdays, .ko): return "주중"
        case (.weekends, .en): return "Weekends"
        case (.weekends, .ko): return "주말"
        default: break
        }
        let sorted = sortedDays
        if sorted.count == 1 {
            let day = CalendarNames.longWeekday(sorted[0], locale)
            return locale == .ko ? day + "마다" : "Every " + day
        }
        return sorted.map { CalendarNames.shortWeekday($0, locale) }.joined(separator: ", ")
    }
}
