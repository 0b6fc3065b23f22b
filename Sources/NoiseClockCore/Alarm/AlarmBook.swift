/// The alarms in their display order, with O(1) lookup by id. At most `limit` alarms.
public struct AlarmBook: Hashable, Sendable {
    public static let limit = 100

    public private(set) var alarms: [Alarm] = []
    private var indexByID: [String: Int] = [:]

    public init() {}

    /// Keeps the first of any repeated id and at most `limit` alarms (for restoring files).
    public init(_ alarms: [Alarm]) {
        for alarm in alarms where indexByID[alarm.id] == nil && self.alarms.count < Self.limit {
            indexByID[alarm.id] = self.alarms.count
            self.alarms.append(alarm)
        }
    }

    public var count: Int { alarms.count }
    public var isEmpty: Bool { alarms.isEmpty }
    public var ids: [String] { alarms.map(\.id) }

    public subscript(id: String) -> Alarm? {
        indexByID[id].map { alarms[$0] }
    }

    public func contains(_ id: String) -> Bool { indexByID[id] != nil }

    /// Appends a new alarm. Fails with `limit_exceeded` when full, `invalid_field` for a taken id.
    public mutating func add(_ alarm: Alarm) throws(CommandError) {
        guard indexByID[alarm.id] == nil else { throw .invalidField("id", "an alarm with id \(alarm.id) already exists") }
        guard alarms.count < Self.limit else { throw CommandError(.limitExceeded, "at most \(Self.limit) alarms") }
        indexByID[alarm.id] = alarms.count
        alarms.append(alarm)
    }

    /// Replaces the alarm with the same id (which must exist).
    public mutating func replace(_ alarm: Alarm) {
        guard let index = indexByID[alarm.id] else { return }
        alarms[index] = alarm
    }

    @discardableResult
    public mutating func remove(_ id: String) -> Alarm? {
        guard let index = indexByID.removeValue(forKey: id) else { return nil }
        let removed = alarms.remove(at: index)
        for i in index..<alarms.count { indexByID[alarms[i].id] = i }
        return removed
    }

    public static func == (lhs: AlarmBook, rhs: AlarmBook) -> Bool { lhs.alarms == rhs.alarms }
    public func hash(into hasher: inout Hasher) { hasher.combine(alarms) }
}
