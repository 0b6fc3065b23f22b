/// What an adapter made of a request the machine handed it (a station probe, an utterance),
/// under the request's `id`: its value, or why there is none. One shape for every such answer.
public struct AdapterOutcome<Value: Sendable & Equatable, Failure: Error & Sendable & Equatable>: Sendable, Equatable {
    public var id: UInt64
    public var result: Result<Value, Failure>

    public init(id: UInt64, result: Result<Value, Failure>) {
        self.id = id
        self.result = result
    }
}
