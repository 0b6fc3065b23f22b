/// A test rig's failure, said in words (a server that did not start, a port that was not free).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
