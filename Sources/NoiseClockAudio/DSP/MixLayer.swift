/// A generator a mix plays as a layer without passes of its own (`MixSource`): the layer's gain
/// taken into the generator's own gains, its frames added into the mix's block as they are made.
/// Without it a layer costs a pass to scale or add it (a pass over every block per layer: an
/// eighth of what the worst mix cost above brown alone, docs/performance.md).
protocol MixLayer: SoundSource {
    /// Scales all this source renders from now on by `gain` (a layer's, once, before it plays).
    func scaleOutput(by gain: Float)
    /// `render`, adding to what `out` holds instead of overwriting it.
    func renderAdding(into out: UnsafeMutablePointer<Float>, frames: Int)
}

/// How a generator's loop puts its frames out: over what is there (`render`) or added to it
/// (`MixLayer.renderAdding`). A loop generic over it is compiled once for each (specialised).
protocol FrameWrite {
    /// One stereo frame at `at`.
    static func put(_ frame: SIMD2<Float>, at: UnsafeMutablePointer<Float>)
    /// Two stereo frames at `at`, which need not be aligned to 16 bytes.
    static func put(_ frames: SIMD4<Float>, at: UnsafeMutableRawPointer)
}

enum OverwriteFrames: FrameWrite {
    @inline(__always) static func put(_ frame: SIMD2<Float>, at: UnsafeMutablePointer<Float>) {
        at[0] = frame.x
        at[1] = frame.y
    }

    @inline(__always) static func put(_ frames: SIMD4<Float>, at: UnsafeMutableRawPointer) {
        at.storeBytes(of: frames, as: SIMD4<Float>.self)
    }
}

enum AddFrames: FrameWrite {
    @inline(__always) static func put(_ frame: SIMD2<Float>, at: UnsafeMutablePointer<Float>) {
        at[0] += frame.x
        at[1] += frame.y
    }

    @inline(__always) static func put(_ frames: SIMD4<Float>, at: UnsafeMutableRawPointer) {
        at.storeBytes(of: at.loadUnaligned(as: SIMD4<Float>.self) + frames, as: SIMD4<Float>.self)
    }
}
