/// What a feature's command asked of the world (`FeatureEffect`), carried out: the feature
/// decided it; the machine bounds the resource it draws on, keeps the reply of a command answered
/// later (with its `request_id`), and hands the adapter its `NodeEffect`.
extension NodeMachine.Draft {
    /// Why the effects cannot be carried out now (a limit), or nil. Checked before anything of
    /// the command is kept, so a refused command changes nothing.
    func overLimit(_ asked: [FeatureEffect]) -> CommandError? {
        for effect in asked {
            switch effect {}
        }
        return nil
    }

    /// Starts the effects; returns whether the command is answered later (through `reply`).
    mutating func carryOut(_ asked: [FeatureEffect], reply: DeferredReply) -> Bool {
        for effect in asked {
            switch effect {}
        }
        return false
    }
}
