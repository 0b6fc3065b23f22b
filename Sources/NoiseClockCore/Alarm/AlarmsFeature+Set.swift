/// `alarms/set`: the declarative form. The list given becomes the whole book, in its order.
extension AlarmsFeature {
    mutating func replaceAll(_ payload: CommandPayload, context: FeatureContext) throws(CommandError) {
        guard let items = payload.list(key: "alarms") else {
            throw CommandError(.invalidJSON, "alarms/set takes a JSON array of alarms (or {\"alarms\": [...]})")
        }
        guard items.count <= AlarmBook.limit else {
            throw CommandError(.limitExceeded, "\(items.count) alarms given; at most \(AlarmBook.limit)")
        }
        var parsed: [(alarm: Alarm, hasID: Bool)] = []
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw CommandError(.invalidJSON, "alarm \(index + 1) must be a JSON object, got \(item.typeName)")
            }
            do {
                let alarm = Self.droppingPastSkipDates(try Alarm.parseNew(object, newID: "pending-id", catalog: context.catalog),
                                                       now: context.now, zone: context.zone)
                parsed.append((alarm, object["id"] != nil))
            } catch {
                var error = error
                error.message = "alarm \(index + 1): " + error.message
                throw error
            }
        }
        var seen = Set<String>()
        for entry in parsed where entry.hasID {
            guard seen.insert(entry.alarm.id).inserted else {
                throw .invalidField("id", "id \(entry.alarm.id) appears twice")
            }
        }
        // An alarm given without id takes the id of an identical existing alarm not otherwise
        // claimed, so sending the same list twice changes nothing.
        var unclaimed = book.alarms.filter { !seen.contains($0.id) }
        var newBook = AlarmBook()
        var candidate = self
        for var entry in parsed {
            if !entry.hasID {
                var probe = entry.alarm
                if let match = unclaimed.firstIndex(where: { probe.id = $0.id; return probe == $0 }) {
                    entry.alarm.id = unclaimed.remove(at: match).id
                } else {
                    entry.alarm.id = candidate.makeID(now: context.now)
                    while seen.contains(entry.alarm.id) { entry.alarm.id = candidate.makeID(now: context.now) }
                }
                seen.insert(entry.alarm.id)
            }
            try newBook.add(entry.alarm)
        }
        var newPlans: [String: Plan] = [:]
        for alarm in newBook.alarms where alarm.enabled {
            if book[alarm.id] == alarm, let plan = plans[alarm.id] {
                newPlans[alarm.id] = plan
            } else {
                newPlans[alarm.id] = Plan(pending: AlarmSchedule.occurrence(of: alarm, after: context.now, zone: context.zone))
            }
        }
        idCounter = candidate.idCounter
        book = newBook
        plans = newPlans
    }
}
