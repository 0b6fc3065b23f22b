extension NodeCore {
    /// Why a state file's document cannot be restored in full (nil: it can, or the feature does
    /// not say). The node sets such a file aside at startup instead of overwriting it.
    public static func restoreProblem(file: String, document: JSONValue) -> String? {
        switch file {
        case StateFile.alarms: AlarmsFeature.restoreProblem(documentShapes[file]?.split(document).known ?? document)
        default: nil
        }
    }
}
