/// The output device's health, published retained on `~/audio`:
/// `{"device": "default", "status": "ok" | "unavailable", "error": "..." | null}`.
public struct AudioStatus: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable { case ok, unavailable }

    public var device: String
    public var state: State
    public var error: String?

    public init(device: String, state: State, error: String? = nil) {
        self.device = device
        self.state = state
        self.error = error
    }

    public var json: JSONValue {
        ["device": .string(device), "status": .string(state.rawValue), "error": .optional(error)]
    }

    public var publication: Publication { Publication(topic: "audio", body: .json(json), retain: true, qos: 1) }
}
