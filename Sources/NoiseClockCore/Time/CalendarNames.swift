/// Month and weekday names per locale, for dates and repeat texts.
public enum CalendarNames {
    static let englishMonths = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// `November`, `11월`.
    public static func month(_ month: Int, _ locale: NodeLocale) -> String {
        switch locale {
        case .en: englishMonths[month - 1]
        case .ko: "\(month)월"
        }
    }

    /// `Sat`, `토`.
    public static func shortWeekday(_ day: Weekday, _ locale: NodeLocale) -> String {
        switch locale {
        case .en: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.rawValue - 1]
        case .ko: ["월", "화", "수", "목", "금", "토", "일"][day.rawValue - 1]
        }
    }

    /// `Monday`, `월요일`.
    public static func longWeekday(_ day: Weekday, _ locale: NodeLocale) -> String {
        switch locale {
        case .en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][day.rawValue - 1]
        case .ko: shortWeekday(day, .ko) + "요일"
        }
    }

    /// `AM`/`PM`, `오전`/`오후`.
    public static func dayPeriod(hour: Int, _ locale: NodeLocale) -> String {
        switch locale {
        case .en: hour < 12 ? "AM" : "PM"
        case .ko: hour < 12 ? "오전" : "오후"
        }
    }
}
