/// What every bridged device says and hears, by bridge (contract v1.2, "Light, shaker"): power,
/// the state query, and the power a report gives. A device's own payloads (the lamp's levels)
/// live with its rules.
extension DeviceEndpoint {
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
