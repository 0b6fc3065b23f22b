/// When the node checks readiness: when the next alarm changes, every 15 minutes while one is
/// due within 12 hours, 10 minutes before it, and on `~/alarm/check`. One check at a time: the
/// next waits until the adapters have answered the last.
public struct ReadinessSchedule: Sendable, Equatable {
    static let repeatSeconds: Int64 = 15 * 60
    static let watchSeconds: Int64 = 12 * 3600
    static let finalSeconds: Int64 = 10 * 60

    /// The next alarm as of a check: which alarm and when (nil: none due).
    struct Target: Sendable, Hashable {
        var alarmID: String
        var at: Instant
    }

    /// What the last check was made for; `.none` until the first check.
    var checkedFor: Target?? = .none
    var lastCheck: Instant?
    /// A probe is out with the adapters.
    public internal(set) var inFlight = false

    /// Whether a check is due at `now` for `target`.
    func isDue(target: Target?, now: Instant) -> Bool {
        guard !inFlight else { return false }
        guard case .some(let checked) = checkedFor, checked == target, let lastCheck else { return true }
        guard let target else { return false }
        if let watch = watchDeadline(target: target, lastCheck: lastCheck), now >= watch { return true }
        return now >= target.at.adding(seconds: -Self.finalSeconds) && lastCheck < target.at.adding(seconds: -Self.finalSeconds)
    }

    /// The next instant a check falls due by time alone (nil: none, or one is out).
    func deadline(target: Target?) -> Instant? {
        guard !inFlight, let target, let lastCheck else { return nil }
        var due = watchDeadline(target: target, lastCheck: lastCheck)
        let final = target.at.adding(seconds: -Self.finalSeconds)
        if lastCheck < final { due = min(due ?? final, final) }
        return due
    }

    /// Every 15 minutes once the alarm is within 12 hours.
    private func watchDeadline(target: Target, lastCheck: Instant) -> Instant? {
        let due = max(lastCheck.adding(seconds: Self.repeatSeconds), target.at.adding(seconds: -Self.watchSeconds))
        return due < target.at ? due : nil
    }
}
