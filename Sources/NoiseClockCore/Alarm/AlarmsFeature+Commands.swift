/// The `alarm/*` and `alarms/set` commands. A refused command leaves the feature unchanged;
/// a command that changes nothing leaves it equal to what it was.
extension AlarmsFeature {
    public typealias Command = AlarmCommand

    public mutating func apply(
        _ command: AlarmCommand, _ payload: CommandPayload, context: FeatureContext, output events: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .add:
            let object = try payload.object(for: command)
            let id = object["id"] == nil ? makeID(now: context.now) : ""
            let parsed = try Alarm.parseNew(object, newID: id, catalog: context.catalog)
            let alarm = Self.droppingPastSkipDates(parsed, now: context.now, zone: context.zone)
            try book.add(alarm)
            replan(alarm, now: context.now, zone: context.zone)
            return output(alarm, context: context)
        case .update:
            let object = try payload.object(for: command)
            guard let idValue = object["id"] else { throw .invalidField("id", "id is required") }
            let old = try existing(Alarm.parseID(idValue))
            let new = Self.droppingPastSkipDates(try old.merging(object, catalog: context.catalog), now: context.now, zone: context.zone)
            store(new, replacing: old, context: context)
            return output(new, context: context)
        case .delete:
            let alarm = try existing(payload.id(for: command))
            book.remove(alarm.id)
            plans[alarm.id] = nil
            return alarm.json
        case .enable, .disable:
            let old = try existing(payload.id(for: command))
            var new = old
            new.enabled = command == .enable
            store(new, replacing: old, context: context)
            return output(new, context: context)
        case .duplicate:
            let original = try existing(payload.id(for: command))
            guard book.count < AlarmBook.limit else { throw CommandError(.limitExceeded, "at most \(AlarmBook.limit) alarms") }
            var copy = original
            copy.id = makeID(now: context.now)
            try book.add(copy)
            replan(copy, now: context.now, zone: context.zone)
            return output(copy, context: context)
        case .skip:
            let old = try existing(payload.id(for: command))
            guard !old.repeatDays.isOnce else {
                throw .invalidField("repeat", "alarm \(old.id) rings once; skip works on repeating alarms (disable or delete it instead)")
            }
            var new = old
            new.skipNext = true
            // Not a re-plan: the pending occurrence is exactly the one to skip.
            book.replace(new)
            return output(new, context: context)
        case .test:
            let alarm = try existing(payload.id(for: command))
            let session = RingSession(alarm: alarm, scheduled: context.now, since: context.now, test: true)
            ring = session
            emit(.fired, session, at: context.now, zone: context.zone, to: &events.publications)
            return stateJSON(context: context)
        case .snooze:
            let minutes = try snoozeMinutes(payload)
            guard var session = ring else { throw CommandError(.notFound, "no alarm is ringing or snoozed") }
            let length = minutes ?? session.alarm.snoozeMinutes
            if session.phase == .ringing { session.snoozeCount += 1 }
            session.phase = .snoozed
            session.since = context.now
            session.snoozeUntil = context.now.adding(seconds: Int64(length) * 60)
            ring = session
            emit(.snoozed, session, at: context.now, zone: context.zone, to: &events.publications)
            return stateJSON(context: context)
        case .dismiss:
            guard let session = ring else { throw CommandError(.notFound, "no alarm is ringing or snoozed") }
            ring = nil
            emit(.dismissed, session, at: context.now, zone: context.zone, to: &events.publications)
            return stateJSON(context: context)
        case .check:
            // Checked here, answered by the machine once the adapters have looked (`ready`).
            try Self.requireEmpty(payload, command: command)
            events.effects.append(.checkReadiness)
            return .null
        case .setAll:
            try replaceAll(payload, context: context)
            return alarmsJSON(context: context)
        case .pause:
            pausedUntil = try pauseDate(payload, context: context)
            return stateJSON(context: context)
        case .resume:
            pausedUntil = nil
            return stateJSON(context: context)
        }
    }

    private func existing(_ id: String) throws(CommandError) -> Alarm {
        guard let alarm = book[id] else { throw CommandError(.notFound, "no alarm with id \"\(id.prefix(64))\"") }
        return alarm
    }

    /// Stores an edited alarm; only a real change re-plans it (from now).
    private mutating func store(_ new: Alarm, replacing old: Alarm, context: FeatureContext) {
        guard new != old else { return }
        book.replace(new)
        replan(new, now: context.now, zone: context.zone)
    }

    /// nil: the alarm's own snooze length.
    private func snoozeMinutes(_ payload: CommandPayload) throws(CommandError) -> Int? {
        switch payload {
        case .empty: return nil
        case .plain(let text): return try Alarm.parseSnoozeMinutes(.string(text), field: "minutes")
        case .json(.int), .json(.double): return try Alarm.parseSnoozeMinutes(payloadValue(payload), field: "minutes")
        case .json(.object(let object)):
            for key in object.keys where key != "minutes" && key != "request_id" {
                throw .invalidField(String(key.prefix(64)), "snooze takes only \"minutes\"")
            }
            guard let value = object["minutes"], !value.isNull else { return nil }
            return try Alarm.parseSnoozeMinutes(value, field: "minutes")
        case .json(let other):
            throw .invalidField("minutes", "snooze takes minutes or {\"minutes\": n}, got \(other.typeName)")
        }
    }

    /// An empty payload, or an object holding only `request_id`.
    private static func requireEmpty(_ payload: CommandPayload, command: AlarmCommand) throws(CommandError) {
        switch payload {
        case .empty: return
        case .json(.object(let object)) where object.keys.allSatisfy({ $0 == "request_id" }): return
        default: throw CommandError(.invalidField, "\(command.rawValue) takes an empty payload")
        }
    }

    private func payloadValue(_ payload: CommandPayload) -> JSONValue {
        if case .json(let value) = payload { return value }
        return .null
    }

    func emit(_ event: AlarmEvent, _ session: RingSession, at: Instant, zone: ZoneRules, to out: inout [Publication]) {
        for alarm in session.allAlarms {
            let body = event.payload(alarm: alarm, scheduled: session.scheduled, at: at,
                                     snoozeCount: session.snoozeCount, test: session.test, zone: zone, source: session.source)
            out.append(contentsOf: event.publications(body))
        }
    }
}
