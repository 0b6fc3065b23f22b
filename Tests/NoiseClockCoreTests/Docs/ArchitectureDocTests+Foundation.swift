import Foundation
import Testing

/// docs/architecture.md, "Modules": no target imports Foundation (only the tests do): it loads
/// about 8 MB of libraries (Foundation, its ICU) into the node. One `import Foundation` in the
/// station's resampler took the idle node from RSS 21.9 MB to 30.3 MB and PSS 10.3 to 15.2 MB.
extension ArchitectureDocTests {
    @Test func noTargetImportsFoundation() throws {
        for (place, line) in try Self.sourceLines() {
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "import" || words.dropFirst().first == "import" else { continue }
            if words.contains(where: { $0.hasPrefix("Foundation") }) {
                Issue.record("\(place): \(line.trimmingCharacters(in: .whitespaces)): use Glibc and the standard library")
            }
        }
    }
}
