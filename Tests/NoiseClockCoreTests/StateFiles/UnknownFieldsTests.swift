import Testing

@testable import NoiseClockCore

/// Fields a newer release added (same `version`) are kept when this node rewrites the file, at
/// the top level and inside each entry, so a rollback followed by an upgrade loses nothing.
@Suite struct UnknownFieldsTests {
    static let future: JSONValue = ["added_in": "9.9", "levels": [1, 2, 3]]

    static func withFutureFields() throws -> [String: JSONValue] {
        var documents = try StateHistoryTests.documents(try #require(StateHistoryTests.releases.last))
        func add(_ file: String, _ change: (inout JSONObject) -> Void) {
            guard var object = documents[file]?.objectValue else { return }
            change(&object)
            documents[file] = .object(object)
        }
        add(NodeCore.StateFile.alarms) { alarms in
            alarms["future_field"] = future
            alarms["alarms"] = .array((alarms["alarms"]?.arrayValue ?? []).map { alarm in
                guard var object = alarm.objectValue, object["id"] == "trip" else { return alarm }
                object["future_field"] = ["kind": "sunrise-2"]
                return .object(object)
            })
        }
        add(NodeCore.StateFile.style) { style in
            var fields = style["style"]?.objectValue ?? JSONObject()
            fields["future_style"] = "neon"
            style["style"] = .object(fields)
        }
        add(NodeCore.StateFile.mixes) { mixes in
            mixes["mixes"] = .array((mixes["mixes"]?.arrayValue ?? []).map { mix in
                guard var object = mix.objectValue else { return mix }
                object["future_field"] = true
                return .object(object)
            })
        }
        return documents
    }

    @Test func anAlarmWithAFieldThisNodeDoesNotKnowIsRead() throws {
        let documents = try Self.withFutureFields()
        let alarms = try #require(documents[NodeCore.StateFile.alarms])
        #expect(NodeCore.restoreProblem(file: NodeCore.StateFile.alarms, document: alarms) == nil)
        let core = StateHistoryTests.core(documents)
        #expect(core.alarms.book.alarms.count == 3)
    }

    @Test func unknownFieldsSurviveTheRewriteACommandCauses() throws {
        var rig = MachineRig(persisted: try Self.withFutureFields())
        rig.step(.connected)
        _ = rig.command("alarm/update", #"{"id": "trip", "label": "Airport, terminal 2"}"#)
        _ = rig.command("style/set", #"{"glow": 10}"#)
        let layers = #"[{"sound": "brown", "volume": 50}, {"sound": "pink", "volume": 20}]"#
        _ = rig.command("mix/set", #"{"id": "rainy_brown", "name": "Rainy", "layers": "# + layers + "}")
        let alarms = try #require(rig.written.last { $0.file == NodeCore.StateFile.alarms }?.document)
        #expect(alarms["future_field"] == Self.future)
        let trip = try #require(alarms["alarms"]?.arrayValue?.first { $0["id"] == "trip" })
        #expect(trip["label"] == "Airport, terminal 2")
        #expect(trip["future_field"] == ["kind": "sunrise-2"])
        let style = try #require(rig.written.last { $0.file == NodeCore.StateFile.style }?.document)
        #expect(style["style"]?["glow"] == 10 && style["style"]?["future_style"] == "neon")
        let mixes = try #require(rig.written.last { $0.file == NodeCore.StateFile.mixes }?.document)
        #expect(mixes["mixes"]?.arrayValue?.first?["name"] == "Rainy" && mixes["mixes"]?.arrayValue?.first?["future_field"] == true)
    }

    @Test func aDeletedEntryTakesItsUnknownFieldsWithIt() throws {
        var rig = MachineRig(persisted: try Self.withFutureFields())
        rig.step(.connected)
        _ = rig.command("alarm/dismiss", "")
        _ = rig.command("alarm/delete", #"{"id": "trip"}"#)
        let alarms = try #require(rig.written.last { $0.file == NodeCore.StateFile.alarms }?.document)
        #expect(alarms["alarms"]?.arrayValue?.count == 2)
        #expect(!alarms.serialized.contains("sunrise-2"))
        #expect(alarms["future_field"] == Self.future, "the file's own field stays")
    }

    @Test func splitAndRestoreAreInverse() {
        let shape = DocumentShape(["version"], lists: ["items": DocumentShape(["id", "a"])], objects: ["inner": DocumentShape(["b"])])
        let document: JSONValue = [
            "version": 1, "x": "top", "items": [["id": "one", "a": 1, "y": 2], ["id": "two", "a": 3]], "inner": ["b": 4, "z": 5],
        ]
        let (known, unknown) = shape.split(document)
        #expect(known == ["version": 1, "items": [["id": "one", "a": 1], ["id": "two", "a": 3]], "inner": ["b": 4]])
        let restored = unknown?.restore(into: known)
        #expect(restored?["x"] == "top" && restored?["items"]?.arrayValue?.first?["y"] == 2 && restored?["inner"]?["z"] == 5)
        #expect(shape.split(known).unknown == nil, "nothing unknown: nothing kept")
    }

    @Test func aFileOfANewerVersionIsNamedAsSuch() {
        #expect(NodeCore.newerVersion(file: NodeCore.StateFile.alarms, document: ["version": 2, "alarms": []]) == 2)
        #expect(NodeCore.newerVersion(file: NodeCore.StateFile.timers, document: ["version": 1]) == nil)
        #expect(NodeCore.newerVersion(file: NodeCore.StateFile.alarms, document: ["alarms": []]) == nil, "no version: not newer")
        #expect(Set(NodeCore.documentVersions.keys) == Set(NodeCore.stateFileNames))
        #expect(Set(NodeCore.documentShapes.keys) == Set(NodeCore.stateFileNames))
    }
}
