/// Something done to each device in place, whatever its kind: a generic method, so each device
/// is changed as itself (never boxed and cast back), as `FeatureVisitor` does for features.
protocol DeviceVisitor {
    mutating func visit<Device: BridgedDevice>(_ device: inout Device)
}
