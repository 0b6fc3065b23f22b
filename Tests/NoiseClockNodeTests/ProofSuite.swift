import Testing

/// Parent of the fault, security and many-node suites. Each starts brokers and node processes
/// (up to 20 at once), so no two of one lane run at once; the two lanes run side by side (about
/// a minute each on a 2-core machine, instead of two one after the other). Their checks are of
/// what survives and what is answered, with timeouts of seconds, not of lateness.
@Suite enum ProofSuite {
    /// The node, the broker or the disk failing under the node: kill -9, broker kills, a
    /// state directory that refuses writes.
    @Suite(.serialized) enum Crashes {}

    /// What surrounds the node going wrong or growing: the speaker unplugged, TLS and passwords,
    /// twenty nodes on one broker.
    @Suite(.serialized) enum Surroundings {}
}
