import Testing

/// Parent of the fault, security and many-node suites. Each starts brokers and node processes
/// (up to 20 at once), so no two of one lane run at once; the three lanes run side by side (about
/// a minute each on a 2-core machine, instead of one after the other). Their checks are of
/// what survives and what is answered, with timeouts of seconds, not of lateness.
@Suite enum ProofSuite {
    /// The broker failing under the node: ten broker kills, an outage across an alarm.
    @Suite(.serialized) enum Crashes {}

    /// The node itself failing: kill -9, a state directory that refuses writes. Beside the broker
    /// kills, not after them (each test has its own broker, node and state directory; no broker is
    /// killed here): one after the other they were the parallel stage's longest path (134 s).
    @Suite(.serialized) enum NodeFaults {}

    /// What surrounds the node going wrong or growing: the speaker unplugged, TLS and passwords,
    /// twenty nodes on one broker.
    @Suite(.serialized) enum Surroundings {}
}
