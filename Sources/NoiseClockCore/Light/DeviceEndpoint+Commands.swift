/// What goes out to a device, by bridge (contract v1.2, "Light, shaker").
extension DeviceEndpoint {
    /// The light at `level`, gliding there over `transition` seconds.
    public func lightCommands(_ level: LightLevel, transition: Int) -> [DeviceCommand] {
        switch bridge {
        case .zigbee2mqtt:
            var fields: [(String, JSONValue)] = [("state", .string(level.on ? "ON" : "OFF"))]
            if level.on {
                // Zigbee's level is 0–254; 1 % must not round to 0 (off on some lamps).
                fields.append(("brightness", .int(Int64(max(1, min(254, (level.brightness * 254 + 50) / 100))))))
                if let color = level.color {
                    fields.append(("color", .object(JSONObject([("hex", .string(color.hex))]))))
                } else if let kelvin = level.kelvin {
                    fields.append(("color_temp", .int(Int64(LightLevel.mireds(kelvin)))))
                }
            }
            fields.append(("transition", .int(Int64(transition))))
            return [DeviceCommand(topic: "\(topic)/set", payload: JSONValue.object(JSONObject(fields)).serialized)]
        case .tasmota:
            // Speed is in half seconds, 1–40; `Fade 1` makes Dimmer/CT/Power glide at that speed.
            var steps = ["Fade 1", "Speed \(max(1, min(40, transition * 2)))"]
            if level.on {
                steps.append("Dimmer \(max(1, min(100, level.brightness)))")
                if let color = level.color {
                    steps.append("Color \(color.hex.dropFirst())")
                } else if let kelvin = level.kelvin {
                    steps.append("CT \(LightLevel.mireds(kelvin))")
                }
            } else {
                steps.append("POWER OFF")
            }
            return [DeviceCommand(topic: "cmnd/\(topic)/Backlog", payload: steps.joined(separator: "; "))]
        }
    }

    /// A plug switched on or off.
    public func powerCommand(_ on: Bool) -> DeviceCommand {
        switch bridge {
        case .zigbee2mqtt: DeviceCommand(topic: "\(topic)/set", payload: on ? #"{"state":"ON"}"# : #"{"state":"OFF"}"#)
        case .tasmota: DeviceCommand(topic: "cmnd/\(topic)/POWER", payload: on ? "ON" : "OFF")
        }
    }

    /// Asks the device for its state without changing it (`noiseclock doctor`: is it answering?);
    /// the answer comes on `stateTopics`.
    public var stateQuery: DeviceCommand {
        switch bridge {
        case .zigbee2mqtt: DeviceCommand(topic: "\(topic)/get", payload: #"{"state":""}"#)
        case .tasmota: DeviceCommand(topic: "cmnd/\(topic)/POWER", payload: "")
        }
    }

    /// The power state a message on one of `stateTopics` reports; nil when it is not this
    /// device's or says nothing about power (Zigbee2MQTT's `<topic>/availability` and the like).
    public func reportedPower(topic messageTopic: String, payload: [UInt8]) -> Bool? {
        guard stateTopics.contains(messageTopic) else { return nil }
        let text = String(decoding: payload, as: UTF8.self)
        if bridge == .tasmota, messageTopic.hasSuffix("/POWER") { return Self.power(text) }
        guard let value = try? JSONParser().parse(payload) else { return nil }
        let key = bridge == .zigbee2mqtt ? "state" : "POWER"
        // Tasmota names the first relay POWER1 on devices with several.
        guard let state = value[key]?.stringValue ?? value["POWER1"]?.stringValue else { return nil }
        return Self.power(state)
    }

    private static func power(_ text: String) -> Bool? {
        switch text.trimmingWhitespace().uppercased() {
        case "ON", "1": true
        case "OFF", "0": false
        default: nil
        }
    }
}
