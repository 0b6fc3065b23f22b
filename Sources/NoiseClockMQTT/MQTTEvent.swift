/// What the client reports to its owner, in order, through its `onEvent` handler.
public enum MQTTEvent: Sendable, Equatable {
    /// Connected (again) and subscribed: time to (re)publish retained state.
    case connected
    case disconnected
    case message(MQTTMessage)
}
