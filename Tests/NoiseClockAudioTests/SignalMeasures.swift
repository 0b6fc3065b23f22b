#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Renders a source into separate left and right arrays.
func renderChannels(_ source: any SoundSource, frames: Int) -> (left: [Float], right: [Float]) {
    var left = [Float](), right = [Float]()
    left.reserveCapacity(frames)
    right.reserveCapacity(frames)
    let block = 1024
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
    defer { buffer.deallocate() }
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        source.render(into: buffer, frames: count)
        for i in 0..<count {
            left.append(buffer[2 * i])
            right.append(buffer[2 * i + 1])
        }
        done += count
    }
    return (left, right)
}

func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
func mean(_ x: [Float]) -> Double { x.reduce(0.0) { $0 + Double($1) } / Double(x.count) }
func correlation(_ a: [Float], _ b: [Float]) -> Double {
    let ma = mean(a), mb = mean(b)
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for i in 0..<min(a.count, b.count) {
        let da = Double(a[i]) - ma, db = Double(b[i]) - mb
        sab += da * db
        saa += da * da
        sbb += db * db
    }
    return sab / (saa * sbb).squareRoot()
}
func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
