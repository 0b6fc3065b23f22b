/// Which problems an `at_risk` has named, for which next alarm (mqtt-api v1.4, "Readiness warns
/// about the alarm it threatens"): a problem is new for each next alarm it threatens, so an alarm
/// added, moved, or next after a ring is warned about even when the problem is old. No `at_risk`
/// while there is no next alarm: there is nothing to warn about.
struct ReadinessWarnings: Sendable, Equatable {
    /// The alarms (id and time) kept in mind; the soonest go first when there are more.
    static let remembered = 32

    /// Per next alarm (id and time), the problem codes an `at_risk` named for it since the last `ready`.
    private(set) var named: [ReadinessSchedule.Target: Set<String>] = [:]

    /// The event a check that found `problems`, with `target` as the next alarm, publishes.
    mutating func judge(_ problems: [ReadinessProblem], target: ReadinessSchedule.Target?) -> ReadinessEvent? {
        let codes = Set(problems.map(\.code.rawValue))
        guard !codes.isEmpty else {
            // `ready` answers an `at_risk`; a problem that comes back after it is new again.
            defer { named = [:] }
            return named.isEmpty ? nil : .ready
        }
        guard let target else { return nil }
        let known = named[target] ?? []
        named[target] = known.union(codes)
        if named.count > Self.remembered, let soonest = named.keys.min(by: { $0.at < $1.at }) { named[soonest] = nil }
        return codes.isSubset(of: known) ? nil : .atRisk
    }
}
