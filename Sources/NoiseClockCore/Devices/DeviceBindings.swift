/// What the node is bound to outside itself: the lamp and the bed shaker (`devices.*`) and the
/// buttons (`buttons`, `button_timing.*`). The web app's settings change them while the node runs
/// (`NodeInput.rebind`); the machine re-binds what changed and leaves the alarms alone.
public struct DeviceBindings: Sendable, Equatable {
    public var devices: DeviceSettings
    public var buttons: [ButtonDefinition]
    public var buttonTiming: ButtonTiming

    public init(devices: DeviceSettings, buttons: [ButtonDefinition], buttonTiming: ButtonTiming) {
        self.devices = devices
        self.buttons = buttons
        self.buttonTiming = buttonTiming
    }
}

/// Topics the MQTT client subscribes to beside the commands, replaced as a group when a binding
/// changes (`NodeEffect.subscribe`).
public enum SubscriptionGroup: String, Sendable, CaseIterable {
    /// The lamp's and shaker's state topics (`DeviceSettings.stateTopics`).
    case devices
    /// The MQTT buttons' topics (`ButtonBoard.mqttTopics`).
    case buttons
}
