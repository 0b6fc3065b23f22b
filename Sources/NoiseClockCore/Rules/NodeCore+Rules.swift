/// Where the rules between features (`FeatureRule`) are applied: before a command reaches its
/// feature (a rule may refuse it), after it took effect, and after every advance. The order
/// matters and is written here only.
extension NodeCore {
    /// A rule's refusal of a command before its feature sees it, or nil.
    func ruleRefusal(_ topic: CommandTopic, _ payload: CommandPayload) -> CommandError? {
        aStationInUseIsNotDeleted(topic, payload)
    }

    /// After a command took effect: what it means beyond its own feature. `result` is the
    /// command's answer, brought up to date when a rule changes what it shows.
    mutating func applyRules(
        afterCommand topic: CommandTopic, before: NodeCore, result: inout JSONValue, fromGroup: Bool, context: FeatureContext,
        outbox: inout [Publication]
    ) {
        theHandOverridesTheRoutine(topic, result: &result, context: context, outbox: &outbox)
        theLampIsToldAtOnce(topic, result: &result, context: context, outbox: &outbox)
        aDeletedSoundGivesWay(before: before)
        if !fromGroup { theGroupsHearASnoozeOrDismiss(topic, ringBefore: before.alarms.ring, now: context.now, outbox: &outbox) }
    }

    /// After every feature moved to `context.now`.
    mutating func applyRules(afterAdvance context: FeatureContext, outbox: inout [Publication]) {
        theNoiseFollowsTheRoutine()
        aFinishedTimerRings(context: context, outbox: &outbox)
        theLightFollowsTheSunriseAndRoutine(context: context, outbox: &outbox)
        theDevicesFollowTheNode(context: context, outbox: &outbox)
        aSafeModeRingTriesNoStation(now: context.now)
        anUnheardRingFailsOver(now: context.now, outbox: &outbox)
    }
}
