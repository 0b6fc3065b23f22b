import Logging

/// `audio.sounds_dir` is bounded, so `~/sounds` is too (issue 31: 500 files with 240-byte names
/// made a 1.55 MB `~/sounds`): at most `maximumCustomSounds` recordings, taken in file-name order
/// (the rest are skipped and named in the log), each display name cut to `maximumNameLength`
/// Unicode scalars. With ids of at most 64 bytes an entry is at most about 600 bytes (every
/// scalar of the name escaped), so the recordings take at most about 240 KB of `~/sounds`.
extension SoundLibrary {
    public static let maximumCustomSounds = 200
    public static let maximumNameLength = 64
    /// Skipped files named in the log at most (a count says how many more).
    static let skippedNamesLogged = 20

    /// `name` cut to `maximumNameLength` scalars, the last one an ellipsis when cut.
    static func boundedName(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard scalars.count > maximumNameLength else { return name }
        var cut = String.UnicodeScalarView(scalars.prefix(maximumNameLength - 1))
        cut.append("…")
        return String(cut)
    }

    /// One warning for the files past the limit, naming the first few (names cut like display names).
    static func logSkipped(_ files: [String], logger: Logger) {
        guard !files.isEmpty else { return }
        let named = files.prefix(skippedNamesLogged).map(boundedName).joined(separator: ", ")
        let more = files.count > skippedNamesLogged ? " and \(files.count - skippedNamesLogged) more" : ""
        logger.warning("sounds_dir holds more than \(maximumCustomSounds) sound files; the rest are skipped", metadata: [
            "skipped": "\(files.count)", "files": "\(named)\(more)",
        ])
    }
}
