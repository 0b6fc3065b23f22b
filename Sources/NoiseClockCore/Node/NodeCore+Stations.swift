extension NodeCore {
    /// Names the address of every station the scene plays (noise, alarm, pre-alarm, preview, preroll),
    /// and what covers the noise's station while it is down (`stream.fallback_noise`).
    func withStations(_ scene: inout AudioScene) {
        let sounds = [scene.noise?.sound, scene.alarm?.sound, scene.preAlarm?.sound, scene.preview?.sound, scene.preroll?.sound]
        for sound in sounds.compactMap({ $0 }) {
            if let station = soundCatalog.station(ofSound: sound) { scene.stations[sound] = station.url }
        }
        if let sound = scene.noise?.sound, scene.stations[sound] != nil {
            scene.noise?.stationFallback = settings.stream.fallbackNoise.flatMap { soundCatalog.hasNoise($0) ? $0 : nil }
        }
    }
}
