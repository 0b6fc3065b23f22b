extension NodeMachine {
    /// One input being planned: the machine as it will be, and the writes, effects and log lines
    /// gathered so far. Log lines go last, so nothing but the state file write stands between an
    /// input and its publications.
    struct Draft {
        var machine: NodeMachine
        let now: Instant
        var writes: [StateWrite] = []
        var effects: [NodeEffect] = []
        var logs: [NodeEffect] = []
        var refusal: NodePlan.Refusal?

        init(machine: NodeMachine, now: Instant) {
            self.machine = machine
            self.now = now
        }

        var core: NodeCore { machine.core }
        var topics: TopicScheme { machine.topics }

        mutating func plan(timerSpent: Bool) -> NodePlan {
            checkReadinessIfDue()
            expireDeviceTests()
            let deadline = machine.nextDeadline(now: now)
            if timerSpent || deadline != machine.armedAt {
                effects.append(.arm(deadline))
                machine.armedAt = deadline
            }
            return NodePlan(writes: writes, machine: machine, effects: effects + logs, refusal: refusal)
        }

        // MARK: Inputs

        mutating func connected() {
            publish("availability", Array("online".utf8), qos: 1, retain: true)
            if let info = machine.info { publish("info", info.json(zone: core.settings.zone).bytes, qos: 1, retain: true) }
            machine.online = true
            machine.forgetRetained()
            syncDiscovery(force: true)
            var next = core
            var outbox: [Publication] = []
            next.advance(to: now, outbox: &outbox)
            commit(next, outbox: outbox)
        }

        mutating func disconnected() {
            machine.online = false
            observe("availability", Array("offline".utf8))
        }

        /// The whole state for the web app: availability, every retained topic, and `time` now.
        mutating func snapshot(_ id: UInt64) {
            var entries = [Observation(suffix: "availability", payload: Array((machine.online ? "online" : "offline").utf8))]
            for publication in core.retainedState(now: now) + machine.buttons.retainedList + [machine.speechStatus.publication] {
                entries.append(Observation(suffix: publication.topic, payload: publication.body.bytes))
            }
            entries.append(Observation(suffix: "time", payload: core.timePayload(at: now).bytes))
            effects.append(.snapshot(requestID: id, entries))
        }

        mutating func tick(clockChanged: Bool) {
            var next = core
            var outbox: [Publication] = []
            if clockChanged {
                log(.notice, "system clock changed; re-planning", ["now": "\(now)"])
                next.clockChanged(now: now, outbox: &outbox)
            } else {
                next.advance(to: now, outbox: &outbox)
            }
            commit(next, outbox: outbox)
            republishIfDue()
        }

        mutating func battery(_ reading: BatteryReading) {
            var next = core
            var outbox: [Publication] = []
            next.batteryRead(reading, now: now, outbox: &outbox)
            // Most polls change nothing: skip the retained and discovery comparison then.
            guard !outbox.isEmpty || next.battery != core.battery else { return }
            commit(next, outbox: outbox)
        }

        mutating func audioStatus(_ status: AudioStatus) {
            if status.state == .unavailable {
                log(.warning, "audio unavailable", ["device": status.device, "error": status.error ?? ""])
            } else {
                log(.info, "audio ok", ["device": status.device])
            }
            var next = core
            var outbox: [Publication] = []
            next.audioChanged(status, now: now, outbox: &outbox)
            commit(next, outbox: outbox)
        }

        mutating func message(_ message: InboundMessage) {
            if message.topic == machine.discovery.birthTopic {
                homeAssistantBirth(message.payload)
            } else if machine.discovery.isConfigTopic(message.topic, nodeID: topics.nodeID) {
                foundRetainedConfig(message)
            } else if let group = topics.group(ofRingTopic: message.topic) {
                groupRing(group, message)
            } else if let suffix = topics.commandSuffix(of: message.topic) {
                command(suffix, payload: message.payload, origin: .mqtt(message))
            } else if core.settings.devices.stateTopics.contains(message.topic) {
                deviceMessage(message)
            } else {
                buttonMessage(message)
            }
        }

        /// A lamp or plug reporting its state on its bridge's topic.
        mutating func deviceMessage(_ message: InboundMessage) {
            var next = core
            var outbox: [Publication] = []
            answerDeviceTests(message)
            _ = next.deviceReported(topic: message.topic, payload: message.payload, now: now, outbox: &outbox)
            next.advance(to: now, outbox: &outbox)
            commit(next, outbox: outbox)
        }

        // MARK: Carrying out

        /// Adopts `next`: stages the state files that changed, publishes the events and the
        /// retained topics that changed, then the response, the discovery configs and the scene.
        mutating func commit(_ next: NodeCore, outbox: [Publication], response: (Response, CommandOrigin)? = nil) {
            for feature in next.features {
                guard let file = type(of: feature).stateFile, !feature.isSame(as: machine.persistedFrom[file]) else { continue }
                machine.persistedFrom[file] = feature
                guard var document = feature.persistent else { continue }
                if let unknown = machine.unknownFields[file] { document = unknown.restore(into: document) }
                let text = document.serialized
                guard machine.lastPersisted[file] != text else { continue }
                writes.append(StateWrite(file: file, document: document, text: text))
                machine.lastPersisted[file] = text
            }
            let ringBefore = machine.core.alarms.ring
            machine.core = next
            // The devices first: a shaker or lamp waits for nothing else.
            for publication in outbox where publication.absolute {
                effects.append(.publish(OutboundMessage(topic: publication.topic, payload: publication.body.bytes, qos: 1, retain: false)))
            }
            for publication in outbox where !publication.absolute {
                if publication.underBase {
                    effects.append(.publish(OutboundMessage(topic: "\(topics.base)/\(publication.topic)", payload: publication.body.bytes,
                                                            qos: publication.qos, retain: publication.retain)))
                    continue
                }
                // Retained state waits for `connected`, which publishes all of it after `online`;
                // the web app is told at once.
                if publication.retain && !machine.online {
                    if machine.observed {
                        let bytes = publication.body.bytes
                        observe(publication.topic, bytes)
                        machine.lastRetained[publication.topic] = bytes
                    }
                    continue
                }
                let bytes = publication.body.bytes
                publish(publication.topic, bytes, qos: publication.qos, retain: publication.retain)
                if publication.retain { machine.lastRetained[publication.topic] = bytes }
            }
            syncRetained()
            if let (response, origin) = response { effects += machine.respond(response, to: origin) }
            syncDiscovery()
            updateAudio()
            announceRing(before: ringBefore)
        }

        /// Publishes every retained topic whose bytes changed; features whose value did not
        /// change since they were last rendered are skipped.
        mutating func syncRetained() {
            // Offline, only the web app is told (`connected` forgets all this and re-publishes).
            guard machine.online || machine.observed else { return }
            let context = core.context(now)
            for id in FeatureID.allCases {
                let feature = core.feature(id)
                guard !feature.isSame(as: machine.retainedFrom[id]) else { continue }
                machine.retainedFrom[id] = feature
                for publication in feature.retained(context: context) { publishIfChanged(publication) }
            }
            for publication in core.deviceRetained { publishIfChanged(publication) }
            if machine.buttons.definitions.isEmpty {
                clearRetained("buttons")  // a list left on the broker by an earlier configuration with buttons
            } else {
                publishIfChanged(machine.buttons.retained)
            }
            publishIfChanged(machine.speechStatus.publication)
        }
    }

    /// Forgets what was published, so everything retained goes out again.
    mutating func forgetRetained() {
        lastRetained = [:]
        retainedFrom = [:]
    }

    /// Arms the wake timer for the first time; the service calls it once before any input.
    public mutating func start(now: Instant) -> [NodeEffect] {
        let deadline = nextDeadline(now: now)
        armedAt = deadline
        return [.arm(deadline)]
    }
}
