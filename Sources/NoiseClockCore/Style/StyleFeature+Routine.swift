/// A routine's face (v1.2): its ClockStyle fields are shown while it is active, then the user's
/// style again, untouched (the face is never written to `style.json`).
extension StyleFeature {
    mutating func follow(face: JSONObject?) {
        if routineFace != face { routineFace = face }
    }
}
