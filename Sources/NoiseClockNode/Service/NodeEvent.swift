import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform

/// Everything that can happen to the node, funnelled into one ordered stream so the core sees
/// one event at a time.
enum NodeEvent: Sendable {
    case mqtt(MQTTEvent)
    case timer(WakeTimer.Event)
    case battery(BatteryReading)
    case audio(AudioStatus)
    /// Time to tell systemd the loop is alive; sent through the loop so a stuck loop misses it.
    case watchdog
    case shutdown
}
