/// What a playing station's stream says it plays now (ICY `StreamTitle`): the engine's stream
/// player reports it, `~/noise` carries it as `title` while the noise plays that station.
public struct StationTitle: Sendable, Equatable {
    /// The station's sound id (`radio:<id>`).
    public var sound: String
    /// Nil or empty: the stream names nothing now.
    public var title: String?

    public init(sound: String, title: String?) {
        self.sound = sound
        self.title = title
    }
}
