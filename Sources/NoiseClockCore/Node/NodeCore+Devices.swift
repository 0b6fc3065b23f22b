/// The bridged devices (`DeviceList`) follow the node after every input; their bridges'
/// reports come back here. Their commands leave in the outbox, like every other publication.
extension NodeCore {
    /// What the devices may read of the node now.
    func deviceSituation(_ context: FeatureContext) -> DeviceSituation {
        DeviceSituation(context: context, alarms: alarms, routine: routines.active, noise: noise)
    }

    /// What the devices need waking for: a wait for an answer; and the light's sunrise.
    func deviceDeadlines(context: FeatureContext) -> [Instant] {
        devices.deadlines(deviceSituation(context)) + [lightDeadline(context: context)].compactMap { $0 }
    }

    /// A message on a device's state topic. Returns false when it is no device's.
    public mutating func deviceReported(topic: String, payload: [UInt8], now: Instant, outbox: inout [Publication]) -> Bool {
        let node = deviceSituation(context(now))
        defer { lampAnswered() }
        return devices.reported(topic: topic, payload: payload, node: node, outbox: &outbox)
    }

    /// The web app's settings moved the lamp or the shaker: each re-bound, `~/light` kept.
    mutating func rebindDevices(_ settings: DeviceSettings, now: Instant, outbox: inout [Publication]) {
        self.settings.devices = settings
        devices.rebind(settings, node: deviceSituation(context(now)), outbox: &outbox)
        lampAnswered()
    }
}
