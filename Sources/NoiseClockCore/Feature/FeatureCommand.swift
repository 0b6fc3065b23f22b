/// A feature's commands: one case per command, its topic below `~/` (or `{base}/all/`) as the raw
/// value. Each feature declares its own enum in its own folder (`NoiseCommand`, `AlarmCommand`, …)
/// and names it as its `NodeFeature.Command`; `CommandTopic` gathers them all.
public protocol FeatureCommand: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String, AllCases == [Self] {}
