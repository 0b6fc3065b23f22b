import Foundation
import Testing

/// docs/architecture.md, "Settings: one writer": `settings.json` has one writer in a running node, the loop,
/// through `NodeEffect.editSettings` (`SettingsWriter`), beside the restore's state writes the loop
/// journals. The web server's thread hands every change on and writes no file; no lock guards
/// the file (`SettingsFileLock` is gone: one thread needs none).
extension ArchitectureDocTests {
    @Test func settingsJSONHasOneWriterTheLoop() throws {
        let writer = "Sources/NoiseClockNode/Settings/SettingsWriter.swift"
        // Where each piece of the one path may appear (and nowhere else).
        let allowed: [(pattern: String, places: Set<String>, why: String)] = [
            ("SettingsFileLock", [], "a lock for several writers; the loop is the only one"),
            ("WebSettings.document(", [writer], "the settings document is made only to be written, by SettingsWriter"),
            ("write(WebSettings.fileName", [writer], "settings.json is written only by SettingsWriter"),
            ("write(SettingsFile.name", [writer], "settings.json is written only by SettingsWriter"),
            ("write(\"settings.json\"", [writer], "settings.json is written only by SettingsWriter"),
            ("StateWrite(file: SettingsFile.name", ["Sources/NoiseClockCore/Machine/NodeMachine+Restore.swift"],
             "the only state write of settings.json is a restore's, journalled by the loop"),
            ("SettingsWriter(", ["Sources/NoiseClockNode/Settings/SettingsAPI.swift"], "the writer is made only by the SettingsAPI"),
            ("settings?.carryOut(", ["Sources/NoiseClockNode/Service/EffectPerformer.swift"],
             "settings edits are carried out only by the effect performer, on the loop"),
        ]
        var seen: [String: Int] = [:]
        for (place, line) in try Self.sourceLines() {
            let path = String(place.prefix { $0 != ":" })
            for rule in allowed where line.contains(rule.pattern) {
                seen[rule.pattern, default: 0] += 1
                if !rule.places.contains(path) { Issue.record("\(place): \(rule.pattern) — \(rule.why)") }
            }
        }
        for rule in allowed where !rule.places.isEmpty {
            #expect(seen[rule.pattern] != nil || rule.pattern.hasPrefix("write("), "\(rule.pattern) not found: the check looks at the wrong code")
        }
        // The web server's way in hands settings on: no writing entry point is called from it.
        let web = try Self.read("Sources/NoiseClockNode/Web/NodeWeb.swift")
        for call in [".change(", ".reset(", "SetupDone.", ".confirm(", "writer", "SettingsWriter"] where web.contains(call) {
            Issue.record("Sources/NoiseClockNode/Web/NodeWeb.swift calls \(call): the web thread hands settings to the loop (SettingsEdit)")
        }
        #expect(web.contains("inbox.send(.settings("), "NodeWeb.swift no longer hands settings to the loop")
    }

    /// A saved `audio.device` or `audio.sounds_dir` moves the engine and the sounds watcher by the
    /// machine's effects (`useSoundDevice`, `watchSoundsFolder`), carried out by the effect
    /// performer: no settings closure moves them itself.
    @Test func theSoundDeviceAndFolderMoveByEffect() throws {
        let performer = "Sources/NoiseClockNode/Service/EffectPerformer.swift"
        var found = 0
        for (place, line) in try Self.sourceLines() {
            let calls = ["audioDesk.use(", "audioDesk?.use(", "soundsFolder.move(", "soundsFolder?.move(", "folder.move(to:"]
            for call in calls where line.contains(call) {
                found += 1
                if !place.hasPrefix(performer + ":") { Issue.record("\(place) calls \(call): the device and the folder move by effect") }
            }
        }
        #expect(found == 2, "the effect performer should move the device and the folder once each (found \(found) calls)")
    }
}
