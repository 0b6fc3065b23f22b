import Testing

/// Parent of the fault, security and many-node suites. Each starts brokers and node processes
/// (up to 20 at once); run one after another, they do not starve each other's timing on a
/// 2-core machine. About 3 minutes in all.
@Suite(.serialized) enum ProofSuite {}
