import Foundation
import Testing
@testable import NoiseClockAudio

@Suite struct SineTableTests {
    @Test func matchesSineWithinAMillionth() {
        let table = SineTable()
        var worst: Float = 0
        for step in 0..<100_000 {
            let phase = Float(step) / 100_000
            worst = max(worst, abs(table.sine(ofPhase: phase) - sinf(2 * Float.pi * phase)))
        }
        #expect(worst < 1e-6, "worst error \(worst)")
    }
}
