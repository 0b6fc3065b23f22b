/// ISO weekday numbering: Monday is 1, Sunday is 7. `code` is the contract's spelling.
public enum Weekday: Int, Sendable, CaseIterable, Comparable, Hashable {
    case mon = 1, tue, wed, thu, fri, sat, sun

    public var code: String {
        switch self {
        case .mon: "mon"
        case .tue: "tue"
        case .wed: "wed"
        case .thu: "thu"
        case .fri: "fri"
        case .sat: "sat"
        case .sun: "sun"
        }
    }

    public init?(code: String) {
        guard let day = Weekday.allCases.first(where: { $0.code == code.lowercased() }) else { return nil }
        self = day
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
