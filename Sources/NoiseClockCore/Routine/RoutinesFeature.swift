/// Routines as a node feature: the list, each enabled routine's next start not yet handled
/// (`plans`, persisted, as for alarms), and the one active routine. The noise follows the
/// active routine (`NodeCore+Programmes.swift`); this feature only decides when it runs.
public struct RoutinesFeature: Sendable, Equatable {
    public internal(set) var routines: [Routine] = []
    /// By routine id: the next start not yet handled. An enabled routine without one is planned
    /// from `now` on the next advance.
    public internal(set) var plans: [String: Instant] = [:]
    public internal(set) var active: ActiveRoutine?
    public internal(set) var idCounter: UInt64 = 0
    /// Set by a restore until the first advance: a routine found running (or due) then is
    /// `resumed`, not `started`.
    var justRestored = false

    public init() {}

    public subscript(id: String) -> Routine? { routines.first { $0.id == id } }

    public func nextDeadline(context: FeatureContext) -> Instant? {
        var deadline = active?.endsAt
        for routine in routines where routine.enabled {
            let due = plans[routine.id] ?? context.now
            deadline = min(deadline ?? due, due)
        }
        // A routine found running at start resumes at once.
        if justRestored, active != nil { deadline = context.now }
        return deadline
    }

    public func retained(context: FeatureContext) -> [Publication] {
        [Publication(topic: "routines", body: .json(listJSON(context: context)), retain: true, qos: 1)]
    }

    public func listJSON(context: FeatureContext) -> JSONValue {
        .array(routines.map { output($0, context: context) })
    }

    public func output(_ routine: Routine, context: FeatureContext) -> JSONValue {
        let running = active?.routine.id == routine.id ? active : nil
        return routine.output(
            active: running != nil, nextStart: routine.enabled ? plans[routine.id] : nil, endsAt: running?.endsAt,
            zone: context.zone, locale: context.locale
        )
    }

    /// Plans `routine` afresh from `now` (after an edit, enable, or a restore without a plan).
    mutating func replan(_ routine: Routine, now: Instant, zone: ZoneRules) {
        plans[routine.id] = routine.enabled ? RoutineSchedule.nextStart(of: routine, after: now, zone: zone) : nil
    }

    mutating func makeID(now: Instant) -> String {
        while true {
            idCounter &+= 1
            let id = AlarmIDGenerator.uuid(now: now, counter: idCounter)
            if self[id] == nil { return id }
        }
    }
}

extension RoutinesFeature {
    /// A deleted mix: routines (and the one running) play its first layer instead.
    mutating func replaceSound(_ old: String, with new: String) {
        for index in routines.indices where routines[index].sound == old { routines[index].sound = new }
        if active?.routine.sound == old { active?.routine.sound = new }
    }
}
