import NoiseClockCore

/// The checks Home Assistant's MQTT integration applies to a discovery config, written from its
/// docs and platform schemas (homeassistant/components/mqtt/*.py): required keys, allowed values,
/// and a whitelist of keys so a misspelt key (which discovery silently drops) is caught.
enum HomeAssistantSchema {
    static let commonKeys: Set<String> = [
        "name", "unique_id", "default_entity_id", "availability_topic", "payload_available", "payload_not_available",
        "qos", "device", "origin", "entity_category", "icon", "json_attributes_topic", "json_attributes_template",
        "enabled_by_default", "encoding",
    ]
    static let platformKeys: [String: Set<String>] = [
        "switch": ["state_topic", "value_template", "command_topic", "command_template", "payload_on", "payload_off",
                   "state_on", "state_off", "optimistic", "retain", "device_class"],
        "select": ["state_topic", "value_template", "command_topic", "command_template", "options", "optimistic", "retain"],
        "number": ["state_topic", "value_template", "command_topic", "command_template", "min", "max", "step", "mode",
                   "unit_of_measurement", "device_class", "payload_reset", "optimistic", "retain"],
        "button": ["command_topic", "command_template", "payload_press", "device_class", "retain"],
        "notify": ["command_topic", "command_template", "retain"],
        "text": ["state_topic", "value_template", "command_topic", "command_template", "min", "max", "mode", "pattern",
                 "optimistic", "retain"],
        "sensor": ["state_topic", "value_template", "device_class", "state_class", "unit_of_measurement", "options",
                   "expire_after", "force_update", "suggested_display_precision"],
        "binary_sensor": ["state_topic", "value_template", "device_class", "payload_on", "payload_off", "expire_after",
                          "force_update", "off_delay"],
        "event": ["state_topic", "value_template", "event_types", "device_class"],
        // The template schema (light.mqtt, "Template schema").
        "light": ["schema", "state_topic", "command_topic", "command_on_template", "command_off_template", "state_template",
                  "brightness_template", "color_temp_template", "red_template", "green_template", "blue_template",
                  "effect_list", "effect_template", "min_mireds", "max_mireds", "optimistic"],
    ]
    static let sensorDeviceClasses: Set<String> = ["timestamp", "enum", "battery", "date", "duration"]
    static let binarySensorDeviceClasses: Set<String> = ["battery_charging", "battery", "problem", "connectivity"]

    /// Every problem found; empty means Home Assistant would accept the config.
    static func problems(_ config: DiscoveryConfig) -> [String] {
        var out: [String] = []
        let component = config.component
        guard let object = config.payload.objectValue else { return ["payload is not an object"] }
        if component == "device_automation" { return triggerProblems(object) }
        guard let allowed = platformKeys[component] else { return ["unknown platform \(component)"] }
        for key in object.keys where !commonKeys.contains(key) && !allowed.contains(key) {
            out.append("\(component): key \(key) is not an option of the platform")
        }
        func string(_ key: String) -> String? { object[key]?.stringValue }
        func requireString(_ key: String) {
            if string(key) == nil { out.append("\(component): \(key) is required and must be a string") }
        }
        for key in object.keys where key.hasSuffix("_topic") || key.hasSuffix("_template") || key.hasPrefix("payload_") {
            if string(key) == nil { out.append("\(key) must be a string") }
        }
        requireString("unique_id")
        requireString("name")
        if let id = string("default_entity_id") {
            let parts = id.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0] != component || parts[1].isEmpty
                || !parts[1].unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) {
                out.append("default_entity_id \(id) is not \(component).<slug>")
            }
        }
        if let qos = object["qos"], ![0, 1, 2].contains(qos.intValue ?? -1) { out.append("qos must be 0, 1 or 2") }
        if let category = object["entity_category"], !["config", "diagnostic"].contains(category.stringValue ?? "") {
            out.append("entity_category must be config or diagnostic")
        }
        out += deviceProblems(object["device"]) + originProblems(object["origin"])
        switch component {
        case "switch":
            requireString("command_topic")
        case "select":
            requireString("command_topic")
            let options = object["options"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if options.isEmpty || options.count != object["options"]?.arrayValue?.count { out.append("select needs options: strings") }
            if Set(options).count != options.count { out.append("select options repeat") }
        case "number":
            requireString("command_topic")
            let min = object["min"]?.doubleValue ?? 1, max = object["max"]?.doubleValue ?? 100
            if !(min < max) { out.append("number needs min < max") }
            if let step = object["step"], (step.doubleValue ?? 0) < 0.001 { out.append("number step must be >= 0.001") }
            if let mode = object["mode"], !["auto", "box", "slider"].contains(mode.stringValue ?? "") { out.append("number mode") }
        case "button", "notify":
            requireString("command_topic")
        case "text":
            requireString("command_topic")
            if let mode = object["mode"], !["text", "password"].contains(mode.stringValue ?? "") { out.append("text mode") }
            let min = object["min"]?.intValue ?? 0, max = object["max"]?.intValue ?? 255
            if min > max || max > 255 || min < 0 { out.append("text needs 0 <= min <= max <= 255") }
            if object["pattern"] != nil, (try? Regex(string("pattern") ?? "(")) == nil { out.append("text pattern is no regex") }
        case "sensor":
            requireString("state_topic")
            out += sensorProblems(object)
        case "binary_sensor":
            requireString("state_topic")
            if let dc = string("device_class"), !binarySensorDeviceClasses.contains(dc) { out.append("binary_sensor device_class \(dc)") }
        case "light":
            requireString("command_topic")
            if string("schema") != "template" { out.append("light: only the template schema is used") }
            requireString("command_on_template")
            requireString("command_off_template")
        case "event":
            requireString("state_topic")
            let types = object["event_types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if types.isEmpty { out.append("event needs event_types") }
        default: break
        }
        return out
    }

    /// An MQTT device trigger (homeassistant/components/mqtt/device_trigger.py): no entity keys.
    static let triggerKeys: Set<String> = [
        "automation_type", "topic", "type", "subtype", "payload", "value_template", "qos", "encoding", "device", "origin",
    ]
    static let triggerTypes: Set<String> = [
        "button_short_press", "button_short_release", "button_long_press", "button_long_release", "button_double_press",
        "button_triple_press", "button_quadruple_press", "button_quintuple_press",
    ]

    static func triggerProblems(_ object: JSONObject) -> [String] {
        var out: [String] = []
        for key in object.keys where !triggerKeys.contains(key) { out.append("device_automation: key \(key) is not an option") }
        if object["automation_type"] != "trigger" { out.append("automation_type must be trigger") }
        for key in ["topic", "type", "subtype"] where object[key]?.stringValue == nil { out.append("device_automation: \(key) is required") }
        if let type = object["type"]?.stringValue, !triggerTypes.contains(type) { out.append("trigger type \(type) has no name in Home Assistant") }
        return out + deviceProblems(object["device"]) + originProblems(object["origin"])
    }

    static func sensorProblems(_ object: JSONObject) -> [String] {
        var out: [String] = []
        let deviceClass = object["device_class"]?.stringValue
        if let deviceClass, !sensorDeviceClasses.contains(deviceClass) { out.append("sensor device_class \(deviceClass)") }
        if let stateClass = object["state_class"], !["measurement", "total", "total_increasing"].contains(stateClass.stringValue ?? "") {
            out.append("sensor state_class")
        }
        if let options = object["options"] {
            if (options.arrayValue ?? []).isEmpty { out.append("sensor options must not be empty") }
            if object["state_class"] != nil || object["unit_of_measurement"] != nil { out.append("options excludes state_class and unit") }
            if deviceClass != "enum" { out.append("options only with device_class enum") }
        } else if deviceClass == "enum" {
            out.append("an enum sensor needs options")
        }
        if deviceClass == "timestamp", object["unit_of_measurement"] != nil || object["state_class"] != nil {
            out.append("a timestamp sensor takes no unit or state_class")
        }
        if deviceClass == "battery", object["unit_of_measurement"]?.stringValue != "%" { out.append("battery sensors are in %") }
        return out
    }

    static func deviceProblems(_ device: JSONValue?) -> [String] {
        guard let device = device?.objectValue else { return ["device is required for grouping"] }
        var out: [String] = []
        let identifiers = device["identifiers"]?.arrayValue ?? []
        if identifiers.isEmpty || identifiers.contains(where: { $0.stringValue == nil }) { out.append("device needs identifiers") }
        for key in ["name", "manufacturer", "model", "sw_version"] where device[key]?.stringValue == nil {
            out.append("device \(key) missing")
        }
        if let url = device["configuration_url"]?.stringValue, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            out.append("configuration_url must be http(s)")
        }
        return out
    }

    static func originProblems(_ origin: JSONValue?) -> [String] {
        guard let origin = origin?.objectValue else { return ["origin missing"] }
        var out: [String] = []
        if origin["name"]?.stringValue == nil { out.append("origin needs a name") }
        for key in origin.keys where !["name", "sw_version", "support_url"].contains(key) { out.append("origin key \(key)") }
        return out
    }
}
