/// The settings page's lamp, shaker and buttons (issue 30): re-bound while the node runs, and the
/// answers to the lamp's and shaker's "Test" (`devices/test`, asked by `FeatureEffect.testDevice`).
extension NodeMachine.Draft {
    /// New bindings: a device whose endpoint changed is re-bound (subscribed to its new state
    /// topics first, so its answer to what it is sent is heard), a changed button list or timing
    /// restarts the readers and re-subscribes the MQTT buttons. The alarms are not touched.
    mutating func rebind(_ bindings: DeviceBindings) {
        if bindings.devices != core.settings.devices {
            effects.append(.subscribe(.devices, bindings.devices.stateTopics))
            var next = core
            var outbox: [Publication] = []
            next.rebindDevices(bindings.devices, now: now, outbox: &outbox)
            commit(next, outbox: outbox)
            log(.notice, "devices re-bound", Dictionary(uniqueKeysWithValues: DeviceList.kinds.map { kind in
                (kind.key, bindings.devices[kind.key].map { "\($0.bridge.rawValue) \($0.topic)" } ?? "none")
            }))
        }
        let board = machine.features.buttons
        if bindings.buttons != board.definitions || bindings.buttonTiming != board.timing {
            let next = board.rebound(bindings.buttons, timing: bindings.buttonTiming)
            machine.features.buttons = next
            effects.append(.readButtons(next))
            effects.append(.subscribe(.buttons, next.mqttTopics))
            syncRetained()
            log(.notice, "buttons re-bound", ["buttons": "\(next.definitions.count)"])
        }
    }

    /// A report on a device's state topic answers the tests waiting for it.
    mutating func answerDeviceTests(_ message: InboundMessage) {
        for (test, power) in machine.features.deviceProbes.answered(topic: message.topic, payload: message.payload) {
            effects += machine.respond(test.reply.response(.success(DeviceProbes.result(test, power: power, at: now))), to: test.reply.origin)
        }
    }

    /// Tests whose device said nothing in time: answered `unconfirmed`.
    mutating func expireDeviceTests() {
        for test in machine.features.deviceProbes.expired(now: now) {
            effects += machine.respond(test.reply.response(.success(DeviceProbes.result(test, power: nil, at: now))), to: test.reply.origin)
            log(.info, "device test unconfirmed", ["kind": test.kind])
        }
    }
}
