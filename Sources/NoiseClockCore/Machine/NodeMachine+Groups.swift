extension NodeMachine.Draft {
    /// Another node snoozed or dismissed an alarm of `group`: this node does the same to its own
    /// ringing or snoozed alarm of that group (not passed on, not answered). A retained message
    /// is from before this node joined: it rings nobody.
    mutating func groupRing(_ group: String, _ message: InboundMessage) {
        guard !message.retain, let payload = try? JSONParser().parse(message.payload),
              let command = core.groupAction(group: group, payload: payload)
        else { return }
        var next = core
        var outbox: [Publication] = []
        // A group message snoozes or dismisses (`groupAction`): neither asks for an effect.
        var asked: [FeatureEffect] = []
        let response = next.handle(command, now: now, outbox: &outbox, effects: &asked, fromGroup: true)
        guard response.ok else {
            log(.warning, "group message not followed", ["group": group, "command": command.topic.rawValue])
            return
        }
        commit(next, outbox: outbox)
        log(.info, "alarm group followed", ["group": group, "command": command.topic.rawValue, "from": payload["node"]?.stringValue ?? ""])
    }
}
