import NoiseClockCore

extension NodeConfiguration {
    /// The lamp, the shaker and the buttons as the machine re-binds them (`NodeInput.rebind`).
    var bindings: DeviceBindings {
        DeviceBindings(devices: devices, buttons: buttons, buttonTiming: buttonTiming)
    }
}
