import Foundation
@testable import NoiseClockNode
import Testing

/// docs/blueprints/*.yaml are blueprints Home Assistant imports: checked against its blueprint
/// schema as documented (developers.home-assistant.io "Blueprint schema", and the automation
/// YAML it wraps), read with the node's own YAML composer, which keeps `!input` tags.
@Suite struct BlueprintSchemaTests {
    static let directory = NodeProcess.packageRoot.appendingPathComponent("docs/blueprints")

    /// The selectors Home Assistant documents (a subset: the ones a blueprint here may use).
    static let selectors: Set<String> = [
        "action", "area", "boolean", "color_rgb", "color_temp", "date", "datetime", "device", "duration", "entity",
        "icon", "number", "object", "select", "target", "template", "text", "time", "trigger", "condition",
    ]
    static let blueprintKeys: Set<String> = ["name", "description", "domain", "source_url", "author", "homeassistant", "input"]
    static let inputKeys: Set<String> = ["name", "description", "default", "selector"]
    static let automationKeys: Set<String> = [
        "blueprint", "mode", "max", "max_exceeded", "trigger_variables", "triggers", "trigger", "variables",
        "conditions", "condition", "actions", "action", "alias", "description", "id", "trace",
    ]

    static func mapping(_ node: YAMLNode?) -> [String: YAMLNode]? {
        guard case .mapping(let mapping)? = node else { return nil }
        var out: [String: YAMLNode] = [:]
        for pair in mapping.pairs {
            guard case .scalar(let key) = pair.key else { return nil }
            out[key.string] = pair.value
        }
        return out
    }

    static func string(_ node: YAMLNode?) -> String? {
        guard case .scalar(let scalar)? = node else { return nil }
        return scalar.string
    }

    /// Every `!input name` in the document.
    static func inputReferences(_ node: YAMLNode) -> [String] {
        switch node {
        case .scalar(let scalar): scalar.tag == "!input" ? [scalar.string] : []
        case .mapping(let mapping): mapping.pairs.flatMap { inputReferences($0.key) + inputReferences($0.value) }
        case .sequence(let sequence): sequence.nodes.flatMap(inputReferences)
        }
    }

    /// What Home Assistant's blueprint schema would refuse in `text`.
    static func problems(_ text: String) throws -> [String] {
        var out: [String] = []
        let root = try #require(try YAMLParser.compose(text))
        guard let document = mapping(root) else { return ["the document is not a mapping"] }
        guard let blueprint = mapping(document["blueprint"]) else { return ["no blueprint: mapping"] }
        for key in blueprint.keys where !blueprintKeys.contains(key) { out.append("blueprint: unknown key \(key)") }
        if string(blueprint["name"])?.isEmpty ?? true { out.append("blueprint.name is required") }
        guard let domain = string(blueprint["domain"]), ["automation", "script"].contains(domain) else {
            return out + ["blueprint.domain must be automation or script"]
        }
        if let ha = blueprint["homeassistant"] {
            let version = string(mapping(ha)?["min_version"]) ?? ""
            if version.wholeMatch(of: /\d{4}\.\d{1,2}\.\d+/) == nil { out.append("homeassistant.min_version \(version) is not YYYY.M.P") }
        }
        var declared: Set<String> = []
        for (name, input) in mapping(blueprint["input"]) ?? [:] {
            declared.insert(name)
            guard let fields = mapping(input) else { out.append("input \(name) is not a mapping"); continue }
            for key in fields.keys where !inputKeys.contains(key) { out.append("input \(name): unknown key \(key)") }
            if let selector = fields["selector"] {
                guard let kinds = mapping(selector), kinds.count == 1, let kind = kinds.keys.first, selectors.contains(kind) else {
                    out.append("input \(name): selector must name one selector type")
                    continue
                }
            }
        }
        let used = Set(inputReferences(root))
        for name in used where !declared.contains(name) { out.append("!input \(name) is not declared") }
        for name in declared where !used.contains(name) { out.append("input \(name) is never used") }
        if domain == "automation" {
            for key in document.keys where !automationKeys.contains(key) { out.append("automation: unknown key \(key)") }
            if document["triggers"] == nil && document["trigger"] == nil { out.append("an automation needs triggers") }
            if document["actions"] == nil && document["action"] == nil { out.append("an automation needs actions") }
            if let mode = string(document["mode"]), !["single", "restart", "queued", "parallel"].contains(mode) {
                out.append("mode \(mode)")
            }
        }
        return out
    }

    @Test func everyBlueprintFollowsHomeAssistantsSchema() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".yaml") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(try Self.problems(text) == [], "\(file)")
        }
    }

    @Test func theCheckRefusesWhatHomeAssistantRefuses() throws {
        #expect(try Self.problems("blueprint:\n  name: x\n  domain: light\n") == ["blueprint.domain must be automation or script"])
        let unused = "blueprint:\n  name: x\n  domain: automation\n  input:\n    a:\n      selector:\n        nope:\ntriggers: []\nactions: []\n"
        #expect(try Self.problems(unused) == ["input a: selector must name one selector type", "input a is never used"])
        #expect(try Self.problems("blueprint:\n  name: x\n  domain: automation\ntriggers: []\nactions:\n  - x: !input b\n")
            == ["!input b is not declared"])
    }

    /// The mirror blueprint reads the keys `~/light` carries.
    @Test func theMirrorReadsTheLightStatesKeys() throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("noiseclock_light_mirror.yaml"), encoding: .utf8)
        for key in ["light.state", "light.brightness", "light.kelvin", "light.color"] { #expect(text.contains(key)) }
        #expect(text.contains("trigger: mqtt"))
    }
}
