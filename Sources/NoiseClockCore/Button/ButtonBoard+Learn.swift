extension ButtonBoard {
    /// The longest input device path `buttons/learn` takes (Linux's PATH_MAX).
    static let maxDevicePathBytes = 4096

    /// `~/buttons/learn`: the seconds every key of every local device is reported for, and the
    /// device to listen to as well (`{"device": "/dev/input/event3"}`, bound or not: the settings
    /// page learns a new button's key), or why not (another field, a device that is no absolute
    /// path, or neither a device given nor a button on a local input device).
    func learn(_ payload: CommandPayload) -> Result<ButtonLearning, CommandError> {
        var device: String?
        do throws(CommandError) {
            if case .json(.object(let object)) = payload, let value = object["device"] {
                if let unknown = object.keys.first(where: { $0 != "device" && $0 != "request_id" }) {
                    throw .invalidField(String(unknown.prefix(64)), "unknown field \"\(unknown.prefix(64))\"; buttons/learn takes {} or {\"device\"}")
                }
                guard let path = value.stringValue, path.hasPrefix("/"), path.utf8.count <= Self.maxDevicePathBytes,
                      !path.unicodeScalars.contains(where: { $0.value < 0x20 })
                else {
                    throw .invalidField("device", "device must be an input device's absolute path (\"/dev/input/event3\")")
                }
                device = path
            } else {
                try MachineCommand.learnButtons.requireEmpty(payload)
            }
        } catch {
            return .failure(error)
        }
        guard hasInputDevices || device != nil else {
            return .failure(CommandError(.notFound, "no button reads a local input device (buttons[].input): there is nothing to learn from"))
        }
        return .success(ButtonLearning(seconds: Self.learnSeconds, device: device))
    }

    /// `~/buttons` when any button is configured (a node without buttons does not publish it).
    public var retainedList: [Publication] { definitions.isEmpty ? [] : [retained] }
}

/// What `buttons/learn` asks for: how long, and a device to listen to besides the bound ones.
struct ButtonLearning: Sendable, Equatable {
    var seconds: Double
    var device: String?
}
