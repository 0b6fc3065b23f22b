extension ButtonBoard {
    /// The longest input device path `buttons/learn` takes (Linux's PATH_MAX).
    static let maxDevicePathBytes = 4096

    /// `~/buttons/learn`: every key of every local device is reported for `learnSeconds`, and of
    /// the device named as well (`{"device": "/dev/input/event3"}`, bound or not: the settings page
    /// learns a new button's key). Answered at once with how long; the learning is the effect
    /// `FeatureEffect.learnButtons`, which the machine checks against the board (`learnRefusal`).
    static func apply(_ command: ButtonsCommand, _ payload: CommandPayload, output: inout FeatureOutput) throws(CommandError) -> JSONValue {
        switch command {
        case .learn:
            let device = try learnDevice(payload, for: command)
            output.effects.append(.learnButtons(seconds: learnSeconds, device: device))
            var result = JSONObject([("seconds", .int(Int64(learnSeconds)))])
            if let device { result["device"] = .string(device) }
            return .object(result)
        }
    }

    /// The device a `buttons/learn` payload names (nil: none), or why the payload is refused:
    /// another field, or a device that is no absolute path.
    static func learnDevice(_ payload: CommandPayload, for command: ButtonsCommand) throws(CommandError) -> String? {
        guard case .json(.object(let object)) = payload, let value = object["device"] else {
            try payload.requireEmpty(for: command)
            return nil
        }
        if let unknown = object.keys.first(where: { $0 != "device" && $0 != "request_id" }) {
            throw .invalidField(String(unknown.prefix(64)), "unknown field \"\(unknown.prefix(64))\"; buttons/learn takes {} or {\"device\"}")
        }
        guard let path = value.stringValue, path.hasPrefix("/"), path.utf8.count <= maxDevicePathBytes,
              !path.unicodeScalars.contains(where: { $0.value < 0x20 })
        else {
            throw .invalidField("device", "device must be an input device's absolute path (\"/dev/input/event3\")")
        }
        return path
    }

    /// Why this board cannot learn now (nil: it can): neither a device given nor a button on a
    /// local input device; or a device named by a command over MQTT. A path opened for reading
    /// on anyone's word would read any file the node may: the web app's (behind its token) only,
    /// as the settings are.
    func learnRefusal(device: String?, overMQTT: Bool) -> CommandError? {
        guard hasInputDevices || device != nil else {
            return CommandError(.notFound, "no button reads a local input device (buttons[].input): there is nothing to learn from")
        }
        guard device == nil || !overMQTT else {
            return .invalidField("device", "device is taken from the web app only (POST /api/buttons/learn)")
        }
        return nil
    }

    /// `~/buttons` when any button is configured (a node without buttons does not publish it).
    public var retainedList: [Publication] { definitions.isEmpty ? [] : [retained] }
}
