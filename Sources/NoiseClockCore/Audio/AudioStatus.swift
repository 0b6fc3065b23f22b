/// The output device's health, published retained on `~/audio`:
/// `{"device": "default", "status": "ok" | "unavailable", "error": "..." | null, "underruns": 0}`.
/// `underruns` (v1.4): how many times since the node started the device ran dry or the engine
/// wrote late and recovered (each an audible click).
public struct AudioStatus: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable { case ok, unavailable }

    public var device: String
    public var state: State
    public var error: String?
    public var underruns: Int

    public init(device: String, state: State, error: String? = nil, underruns: Int = 0) {
        self.device = device
        self.state = state
        self.error = error
        self.underruns = underruns
    }

    /// Why nothing can be heard, while the device does not play (nil when it does).
    public var problem: String? { state == .unavailable ? (error ?? "unavailable") : nil }

    public var json: JSONValue {
        ["device": .string(device), "status": .string(state.rawValue), "error": .optional(error), "underruns": .int(Int64(underruns))]
    }

    public var publication: Publication { Publication(topic: "audio", body: .json(json), retain: true, qos: 1) }
}
