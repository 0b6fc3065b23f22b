/// `timer/start`, `timer/cancel` and `timer/presets/set`.
extension TimersFeature {
    public typealias Command = TimerCommand

    public mutating func apply(
        _ command: TimerCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .start:
            guard timers.count < CountdownTimer.limit else { throw CommandError(.limitExceeded, "at most \(CountdownTimer.limit) timers at once") }
            var timer = try parseStart(payload, context: context)
            timer.id = makeID(now: context.now)
            timers.append(timer)
            output.publications.append(TimerEvent.started.publication(timer, at: context.now, zone: context.zone))
            return timer.json(zone: context.zone)
        case .cancel:
            let target = try payload.id(for: command)
            let cancelled = target.lowercased() == "all" ? timers : timers.filter { $0.id == target }
            guard target.lowercased() == "all" || !cancelled.isEmpty else {
                throw CommandError(.notFound, "no running timer with id \"\(target.prefix(64))\"")
            }
            timers.removeAll { timer in cancelled.contains { $0.id == timer.id } }
            for timer in cancelled { output.publications.append(TimerEvent.cancelled.publication(timer, at: context.now, zone: context.zone)) }
            return .array(cancelled.map { $0.json(zone: context.zone) })
        case .setPresets:
            guard let items = payload.list(key: "presets") else {
                throw CommandError(.invalidJSON, "timer/presets/set takes a JSON array of {id, label, minutes, sound} (or {\"presets\": [...]})")
            }
            guard items.count <= TimerPreset.limit else {
                throw CommandError(.limitExceeded, "\(items.count) presets given; at most \(TimerPreset.limit)")
            }
            var list: [TimerPreset] = []
            for (index, item) in items.enumerated() {
                do throws(CommandError) {
                    let preset = try TimerPreset.parse(item, catalog: context.catalog)
                    guard !list.contains(where: { $0.id == preset.id }) else {
                        throw CommandError.invalidField("id", "id \(preset.id) appears twice")
                    }
                    list.append(preset)
                } catch {
                    var error = error
                    error.message = "preset \(index + 1): " + error.message
                    throw error
                }
            }
            presets = list
            return .array(presets.map(\.json))
        }
    }

    /// `20`, `{"minutes": 20}`, `{"seconds": 90}`, `{"preset": "nap"}` (its minutes, label and
    /// sound unless given), each with optional `label` and `sound`. A plain preset id works too.
    private func parseStart(_ payload: CommandPayload, context: FeatureContext) throws(CommandError) -> CountdownTimer {
        var object: JSONObject
        switch payload {
        case .plain(let text):
            if let preset = presets.first(where: { $0.id == text.lowercased() }) {
                object = JSONObject([("preset", .string(preset.id))])
            } else {
                object = JSONObject([("minutes", .int(Int64(try FieldCheck.integer(text: text, "minutes", in: CountdownTimer.minutesRange))))])
            }
        case .json(.int), .json(.double):
            guard case .json(let value) = payload else { throw .invalidField("minutes", "minutes is required") }
            object = JSONObject([("minutes", value)])
        case .json(.object(let given)): object = given
        case .json(let other): throw CommandError(.invalidJSON, "timer/start takes minutes or a JSON object, got \(other.typeName)")
        case .empty: throw .invalidField("minutes", "timer/start needs minutes, seconds or a preset")
        }
        try ProgrammeFields.rejectUnknown(object, known: ["minutes", "seconds", "label", "sound", "preset", "vibrate"], ignored: ["request_id"])
        var preset: TimerPreset?
        if let value = object["preset"] {
            guard let id = value.stringValue else { throw .invalidField("preset", "preset must be a preset id string") }
            guard let found = presets.first(where: { $0.id == id }) else {
                throw CommandError(.notFound, field: "preset", "no timer preset \"\(id.prefix(64))\"; see ~/timer/presets")
            }
            preset = found
        }
        if object["minutes"] != nil, object["seconds"] != nil { throw .invalidField("seconds", "give minutes or seconds, not both") }
        let seconds: Int
        if let value = object["seconds"] {
            seconds = try FieldCheck.integer(value, "seconds", in: CountdownTimer.secondsRange)
        } else if let value = object["minutes"] {
            seconds = try FieldCheck.integer(value, "minutes", in: CountdownTimer.minutesRange) * 60
        } else if let preset {
            seconds = preset.minutes * 60
        } else {
            throw .invalidField("minutes", "timer/start needs minutes, seconds or a preset")
        }
        let label = try object["label"].map { value throws(CommandError) in try ProgrammeFields.text(value, "label", limit: Alarm.maxLabelLength) }
            ?? preset?.label ?? CountdownTimer.defaultLabel
        let sound = try object["sound"].map { value throws(CommandError) in try Alarm.parseSound(value, catalog: context.catalog) }
            ?? preset?.sound ?? CountdownTimer.defaultSound
        let vibrate = try object["vibrate"].map { value throws(CommandError) in try ProgrammeFields.bool(value, "vibrate") } ?? false
        return CountdownTimer(id: "", label: label, seconds: seconds, sound: sound, startedAt: context.now,
                              endsAt: context.now.adding(seconds: Int64(seconds)), vibrate: vibrate)
    }
}
