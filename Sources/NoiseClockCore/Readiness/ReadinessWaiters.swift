/// `~/alarm/check` commands waiting for the check's answer: each is answered with the readiness
/// the adapters report next (one probe answers all of them).
struct ReadinessWaiters: Sendable {
    private var replies: [DeferredReply] = []

    /// Someone asked: a probe is due even if the schedule says none is.
    var anyWaiting: Bool { !replies.isEmpty }

    mutating func wait(_ reply: DeferredReply) {
        replies.append(reply)
    }

    /// Every waiting command's answer, `readiness` as its result; none waits after.
    mutating func answer(_ readiness: JSONValue) -> [(response: Response, origin: CommandOrigin)] {
        defer { replies = [] }
        return replies.map { ($0.response(.success(readiness)), $0.origin) }
    }
}
