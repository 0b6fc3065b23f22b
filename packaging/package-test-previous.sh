# Sourced by packaging/package-test.sh (its functions and variables): the real upgrade (issue 39;
# docs/testing.md, "A real upgrade"). From the previous release's package (packaging/previous-release.sh),
# state made by its node, upgraded to DEB and rolled back, every field compared; DEB installed again.
# --- a real upgrade (issue 39): from the previous release's package, state made by its node.
previous_deb=$("$repo/packaging/previous-release.sh") || { echo "package test: no previous release package"; exit 1; }
previous_version=$(dpkg-deb -f "$previous_deb" Version)
echo "  previous release: $(basename "$previous_deb")"
cp "$previous_deb" "$root/tmp/"
apt_in_root purge noiseclock >"$work/purge-before-previous.log" 2>&1
apt_in_root install "/tmp/$(basename "$previous_deb")" >"$work/install-previous.log" 2>&1
check "apt installs the previous release $previous_version in the purged root" installed "$previous_version"
edit_conffile
check "the conffile edited for the previous release's node" edited
start_node "$work/node-previous.log"
online=$(wait_online)
check "the previous release's node online within 10 s (${online:-no} s)" test -n "$online"
web_url=$(in_root runuser -u noiseclock -- /usr/bin/noiseclock web-url --config /etc/noiseclock/noiseclock.yaml 2>&1)
token=${web_url##*token=}
web_settings() { # web_settings JSON: POST /api/settings with the token, answered 200
    curl -sS -o "$work/settings-answer.json" -w '%{http_code}\n' -H "Authorization: Bearer $token" \
        -H 'Content-Type: application/json' --data "$1" "http://127.0.0.1:$web_port/api/settings" | grep -x 200 ||
        { cat "$work/settings-answer.json"; return 1; }
}
check "settings saved in the previous release's web app" web_settings \
    '{"timezone": "Asia/Seoul", "speech.rate": 210, "stream.fallback_noise": "pink", "stream.timeout_seconds": 8}'
check "alarm/add through the previous release" mqtt_command alarm/add \
    '{"time": "6:45 AM", "label": "Upgrade test", "repeat": "weekdays", "sound": "chime", "volume": 70}'
check "station/add through the previous release" mqtt_command station/add \
    '{"id": "jazz", "name": "Jazz FM", "url": "http://radio.example.com/jazz.mp3"}'
check "a second alarm (once, on the station, a Korean label, off) through the previous release" mqtt_command alarm/add \
    '{"time": "21:10", "label": "약 먹기", "repeat": "never", "sound": "radio:jazz", "volume": 40, "enabled": false}'
check "style/set through the previous release" mqtt_command style/set '{"use_24_hour": false, "digit_color": "#0af"}'
check "routine/add through the previous release" mqtt_command routine/add \
    '{"id": "lullaby", "start": "22:00", "end": "06:30", "sound": "pink", "volume": 30}'
full_snapshot() { # full_snapshot NAME: every retained alarm, station, style and routine, and the web app's settings
    {
        sub -t "$topic/alarms" -C 1 -W 5
        sub -t "$topic/stations" -C 1 -W 5
        sub -t "$topic/style" -C 1 -W 5
        sub -t "$topic/routines" -C 1 -W 5
        curl -sS -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/settings"
        echo
    } >"$work/$1.raw" && python3 -c '
import json, sys
alarms, stations, style, routines, settings = (json.loads(line) for line in open(sys.argv[1]) if line.strip())
web = {key: value for key, value in settings["values"].items() if settings["sources"].get(key) == "web"}
json.dump({"alarms": {a["id"]: a for a in alarms}, "stations": {s["id"]: s for s in stations}, "style": style,
           "routines": {r["id"]: r for r in routines}, "settings": web}, open(sys.argv[2], "w"), sort_keys=True, indent=1)' \
        "$work/$1.raw" "$work/$1.json"
}
made_everything() {
    full_snapshot previous && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
labels = sorted(a["label"] for a in s["alarms"].values())
ok = labels == ["Upgrade test", "약 먹기"] and "jazz" in s["stations"] and "lullaby" in s["routines"] \
    and s["style"].get("use_24_hour") is False and s["settings"].get("timezone") == "Asia/Seoul" and len(s["settings"]) == 4
print(labels, sorted(s["stations"]), sorted(s["routines"]), s["style"], s["settings"])
sys.exit(0 if ok else 1)' "$work/previous.json"
}
check "the previous release's node shows 2 alarms, the station, style, routine and 4 settings" made_everything
kept_everything() { # kept_everything NAME: every field the previous release showed, the same in NAME
    full_snapshot "$1" && python3 -c '
import json, sys
before, after = (json.load(open(path)) for path in sys.argv[1:3])
lost = []
def same(path, old, new):
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new: lost.append(f"{path}.{key} missing")
            else: same(f"{path}.{key}", value, new[key])
    elif old != new:
        lost.append(f"{path}: {old!r} -> {new!r}")
same("", before, after)
print("\n".join(lost) or "every field kept: %d alarms, %d stations, %d routines, %d settings, the style" % (
    len(after["alarms"]), len(after["stations"]), len(after["routines"]), len(after["settings"])))
sys.exit(1 if lost else 0)' "$work/previous.json" "$work/$1.json"
}
: >"$root/run/systemctl-calls.log"
apt_in_root install "/tmp/$(basename "$deb")" >"$work/upgrade-from-previous.log" 2>&1
check "apt upgrades $previous_version to $version over the running node" installed "$version"
check "the upgrade from the previous release restarted the service" asked restart
check "the user's edit of the conffile survives the upgrade from the previous release" edited
check "the previous release's node stops cleanly (SIGTERM, exit 0)" stop_node
start_node "$work/node-upgraded.log"
online=$(wait_online)
check "this release's node online on the previous release's state within 10 s (${online:-no} s)" test -n "$online"
check "every alarm, station, setting, style and routine field kept by the upgrade" kept_everything upgraded
echo "  upgrade: $(tail -1 "$work/check.out")"
stop_node
apt_in_root install --allow-downgrades "/tmp/$(basename "$previous_deb")" >"$work/rollback-previous.log" 2>&1
check "apt rolls back to the previous release $previous_version" installed "$previous_version"
start_node "$work/node-rolled-back.log"
online=$(wait_online)
check "the rolled-back previous release online within 10 s (${online:-no} s)" test -n "$online"
check "every alarm, station, setting, style and routine field kept by the rollback" kept_everything rolled-back
echo "  rollback: $(tail -1 "$work/check.out")"
stop_node
apt_in_root install "/tmp/$(basename "$deb")" >"$work/reinstall.log" 2>&1
check "this release installed again (for remove and purge)" installed "$version"

