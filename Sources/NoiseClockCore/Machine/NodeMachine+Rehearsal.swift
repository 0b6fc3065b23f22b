extension NodeMachine {
    /// Plans the wake the timer is armed for, and throws the plan away (`plan` changes nothing):
    /// true when that wake begins a ring. The node does it once, when an alarm is armed, so the
    /// first fire in a process is not the first run of its code: Swift instantiates the fire
    /// path's type metadata and the kernel maps its pages then, not at the alarm's instant.
    /// Only a wake an alarm or a timer is due at is planned: the minute's time tick, armed every
    /// minute on a node with no ring ahead, is not planned twice.
    public func rehearseArmedWake() -> Bool {
        guard let armedAt else { return false }
        let context = core.context(armedAt)
        let ringDue = [core.alarms.nextDeadline(context: context), core.timers.nextDeadline(context: context)].contains(armedAt)
        guard ringDue else { return false }
        return plan(.wake, now: armedAt).machine.core.alarms.ring?.beginsRinging(after: core.alarms.ring) == true
    }
}
