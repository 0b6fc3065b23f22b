/// The `routine/*` and `routines/set` commands. A refused command leaves the feature unchanged;
/// one that changes nothing leaves it equal.
extension RoutinesFeature {
    public typealias Command = RoutineCommand

    public mutating func apply(
        _ command: RoutineCommand, _ payload: CommandPayload, context: FeatureContext, output events: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        let now = context.now
        switch command {
        case .add:
            let object = try payload.object(for: command)
            guard routines.count < Routine.limit else { throw CommandError(.limitExceeded, "at most \(Routine.limit) routines") }
            let id = object["id"] == nil ? makeID(now: now) : ""
            let routine = try Routine.parseNew(object, newID: id, catalog: context.catalog)
            guard self[routine.id] == nil else { throw .invalidField("id", "a routine with id \(routine.id) already exists") }
            routines.append(routine)
            replan(routine, now: now, zone: context.zone)
            return output(routine, context: context)
        case .update:
            let object = try payload.object(for: command)
            guard let idValue = object["id"] else { throw .invalidField("id", "id is required") }
            let old = try existing(Alarm.parseID(idValue))
            let new = try old.merging(object, catalog: context.catalog)
            store(new, replacing: old, context: context)
            return output(new, context: context)
        case .delete:
            let routine = try existing(payload.id(for: command))
            routines.removeAll { $0.id == routine.id }
            plans[routine.id] = nil
            if active?.routine.id == routine.id { windDown(at: now) }
            return routine.json
        case .enable, .disable:
            let old = try existing(payload.id(for: command))
            var new = old
            new.enabled = command == .enable
            store(new, replacing: old, context: context)
            return output(new, context: context)
        case .setAll:
            try replaceAll(payload, context: context)
            return listJSON(context: context)
        case .start:
            let routine = try existing(payload.id(for: command))
            begin(routine, at: now, endsAt: RoutineSchedule.end(of: routine, startedAt: now, zone: context.zone),
                  event: .started, zone: context.zone, outbox: &events.publications)
            return output(routine, context: context)
        case .stop:
            guard let running = active else { throw CommandError(.notFound, "no routine is active") }
            windDown(at: now)
            return output(self[running.routine.id] ?? running.routine, context: context)
        }
    }

    private func existing(_ id: String) throws(CommandError) -> Routine {
        guard let routine = self[id] else { throw CommandError(.notFound, "no routine with id \"\(id.prefix(64))\"") }
        return routine
    }

    /// Stores an edited routine; only a real change re-plans it (from now). Disabling the active
    /// routine (`routine/disable`, or `enabled: false` in an update, as Home Assistant's switch
    /// sends) fades it out from now.
    private mutating func store(_ new: Routine, replacing old: Routine, context: FeatureContext) {
        guard new != old, let index = routines.firstIndex(where: { $0.id == old.id }) else { return }
        routines[index] = new
        replan(new, now: context.now, zone: context.zone)
        if !new.enabled, active?.routine.id == new.id { windDown(at: context.now) }
    }

    /// `routines/set`: the list given becomes the whole list, in its order. Unchanged routines keep their plans.
    private mutating func replaceAll(_ payload: CommandPayload, context: FeatureContext) throws(CommandError) {
        guard let items = payload.list(key: "routines") else {
            throw CommandError(.invalidJSON, "routines/set takes a JSON array of routines (or {\"routines\": [...]})")
        }
        guard items.count <= Routine.limit else {
            throw CommandError(.limitExceeded, "\(items.count) routines given; at most \(Routine.limit)")
        }
        var list: [Routine] = []
        var candidate = self
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw CommandError(.invalidJSON, "routine \(index + 1) must be a JSON object, got \(item.typeName)")
            }
            do throws(CommandError) {
                let id = object["id"] == nil ? candidate.makeID(now: context.now) : ""
                let routine = try Routine.parseNew(object, newID: id, catalog: context.catalog)
                guard !list.contains(where: { $0.id == routine.id }) else { throw CommandError.invalidField("id", "id \(routine.id) appears twice") }
                list.append(routine)
            } catch {
                var error = error
                error.message = "routine \(index + 1): " + error.message
                throw error
            }
        }
        var newPlans: [String: Instant] = [:]
        for routine in list where routine.enabled {
            if self[routine.id] == routine, let plan = plans[routine.id] {
                newPlans[routine.id] = plan
            } else if let start = RoutineSchedule.nextStart(of: routine, after: context.now, zone: context.zone) {
                newPlans[routine.id] = start
            }
        }
        idCounter = candidate.idCounter
        routines = list
        plans = newPlans
        if let running = active, list.first(where: { $0.id == running.routine.id })?.enabled != true { windDown(at: context.now) }
    }
}
