/// Alarm groups (v1.2): one snooze or dismiss for every room. A node that snoozes or dismisses a
/// ringing (or snoozed) alarm of a group, by any source, says so on `{base}/groups/<group>/ring`;
/// every other node whose ringing or snoozed alarm has that group does the same, without saying
/// anything there (so nothing loops back).
extension NodeCore {
    /// The topic below the base topic for `group`.
    public static func groupRingTopic(_ group: String) -> String { "groups/\(group)/ring" }

    /// `FeatureRule.theGroupsHearASnoozeOrDismiss`: after a successful `alarm/snooze` or
    /// `alarm/dismiss` here, one message per group of the ring.
    mutating func theGroupsHearASnoozeOrDismiss(_ topic: CommandTopic, ringBefore: RingSession?, now: Instant, outbox: inout [Publication]) {
        guard topic == .alarms(.snooze) || topic == .alarms(.dismiss), let ringBefore else { return }
        let groups = Set(ringBefore.allAlarms.compactMap(\.group)).sorted()
        guard !groups.isEmpty else { return }
        var minutes: JSONValue = .null
        if topic == .alarms(.snooze), let until = alarms.ring?.snoozeUntil {
            minutes = .int((until.milliseconds - now.milliseconds) / 60_000)
        }
        for group in groups {
            let body: JSONValue = .object(JSONObject([
                ("action", .string(topic == .alarms(.snooze) ? "snooze" : "dismiss")),
                ("minutes", minutes),
                ("node", .string(settings.nodeID)),
                ("alarm_id", .string(ringBefore.alarm.id)),
                ("group", .string(group)),
                ("at", .string(ISO8601.string(now, in: settings.zone))),
            ]))
            outbox.append(Publication(topic: Self.groupRingTopic(group), body: .json(body), retain: false, qos: 1, underBase: true))
        }
    }

    /// What another node's group message asks of this one, if anything: its own messages and ones
    /// for a group none of whose alarms ring or are snoozed here are nothing.
    public func groupAction(group: String, payload: JSONValue) -> CommandMessage? {
        guard let object = payload.objectValue, let node = object["node"]?.stringValue, node != settings.nodeID,
              let ring = alarms.ring, ring.allAlarms.contains(where: { $0.group == group })
        else { return nil }
        switch object["action"]?.stringValue {
        case "dismiss":
            return CommandMessage(topic: .alarms(.dismiss), payload: .empty)
        case "snooze":
            guard let minutes = object["minutes"], !minutes.isNull else { return CommandMessage(topic: .alarms(.snooze), payload: .empty) }
            return CommandMessage(topic: .alarms(.snooze), payload: .json(["minutes": minutes]))
        default:
            return nil
        }
    }
}
