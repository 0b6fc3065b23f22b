/// The lamp's payloads, by bridge (contract v1.2, "Light, shaker").
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
}
