"""The settings page's Sound section (v1.3): the device list, the live device, the test chime, in the same
browser against the same node as test_web (which runs this as its own: the rig, the node and the browser are test_web's,
read at call time)."""
import json
import os
import tempfile
import time
import unittest

from selenium.webdriver.common.by import By

import test_web as W
from test_programmes import click
from test_settings import choose, edit, inner, open_settings, row, save, settings, write_wav


def chime_heard(name):
    """(first note's time, its amplitude, second note's time) on capture PCM name, or None before
    both notes of the test chime (E6, then C6 0.45 s later) are in it."""
    first_at, first = W.NODE.capture.tone_at(name, 1318.5)
    second_at, second = W.NODE.capture.tone_at(name, 1046.5)
    if first < 0.02 or second < 0.02 or not 0.35 <= second_at - first_at <= 0.55:
        return None
    return first_at, first, second_at


class M_SoundSettings(unittest.TestCase):
    """The Sound section (issue 30, parts 1 and 6): a device picked from ALSA's list, applied live,
    its test chime read back from the capture PCMs of the tests' ALSA configuration."""

    def test_a_the_test_chime_plays_on_a_typed_device_and_on_the_saved_one(self):
        capture = W.NODE.capture
        audio = W.NODE.subscribe("audio")
        try:
            open_settings()
            # The picker: ALSA's playback devices by their descriptions, the current one first.
            W.wait_for(lambda: W.DRIVER.execute_script(
                "const o = document.querySelector('#s-audio-device option[value=\"nc_chime\"]'); return o && o.textContent")
                == capture.devices["nc_chime"], what="nc_chime by its description in the speaker list")
            status, body = W.api("/api/audio/devices")
            listed = json.loads(body)
            self.assertEqual(status, 200)
            self.assertEqual(listed[0], {"name": "null_noiseclock_test", "description": None, "current": True})
            for name in ("nc_chime", "nc_try"):
                self.assertIn({"name": name, "description": capture.devices[name], "current": False}, listed)
            # Typed, not saved: the chime opens that device itself (the node plays on another).
            choose("audio.device", "nc_try")
            click(row("audio.device").find_element(By.CSS_SELECTOR, '[data-nc="audio-test"]'))
            result = W.wait_for(lambda: (lambda e: e if e.get_attribute("data-ok") else None)(W.hook("audio-test-result")),
                                what="the test chime's answer")
            self.assertEqual(result.get_attribute("data-ok"), "true", result.text)
            self.assertIn("Played on nc_try", result.text)
            self.assertIn("No volume control to read", result.text)
            W.wait_for(lambda: chime_heard("nc_try"), what="the chime on nc_try")
            self.assertEqual(settings()["values"]["audio.device"], "null_noiseclock_test")
            # Saved: the node's engine moves to the device at once, no restart (~/audio says so).
            choose("audio.device", "nc_chime")
            mark = audio.count()
            saved = time.monotonic()
            save("audio.device")
            audio.json(lambda a: a["device"] == "nc_chime" and a["status"] == "ok", timeout=3, after=mark)
            took = time.monotonic() - saved
            self.assertLess(took, 2.0)
            answer = settings()
            self.assertEqual((answer["values"]["audio.device"], answer["sources"]["audio.device"], answer["applies"]["audio.device"]),
                             ("nc_chime", "web", "now"))
            W.wait_for(lambda: "Now playing on " + capture.devices["nc_chime"] in W.hook("audio-status").text, what="the output line")
            # Its chime now goes through the node's engine, which holds the device.
            self.assertIsNone(chime_heard("nc_chime"))
            click(W.fresh(lambda: row("audio.device").find_element(By.CSS_SELECTOR, '[data-nc="audio-test"]')))
            W.wait_for(lambda: W.hook("audio-test-result").get_attribute("data-ok") == "true"
                       and "Played on nc_chime" in W.hook("audio-test-result").text, what="the engine's chime answer")
            W.wait_for(lambda: chime_heard("nc_chime"), what="the chime on nc_chime, through the engine")
            W.MEASURED["settings page: sound device saved to ~/audio ok"] = f"{took:.2f} s"
        finally:
            mark = audio.count()
            moved = settings()["values"]["audio.device"] != "null_noiseclock_test"
            W.api("/api/settings/reset", json.dumps({"keys": ["audio.device"]}).encode())
            try:
                if moved:  # back on the missing device, as every other test expects
                    audio.json(lambda a: a["device"] == "null_noiseclock_test" and a["status"] == "unavailable", timeout=3, after=mark)
            finally:
                audio.stop()

    def test_b_a_device_that_does_not_open_says_why_and_a_bad_request_is_refused(self):
        status, body = W.api("/api/audio/test", json.dumps({"device": "nc_missing"}).encode())
        answer = json.loads(body)
        self.assertEqual((status, answer["ok"], answer["error"]["code"]), (400, False, "audio_unavailable"))
        self.assertIn("nc_missing", answer["error"]["message"])
        status, body = W.api("/api/audio/test", json.dumps({"device": 5}).encode())
        self.assertEqual((status, json.loads(body)["error"]["field"]), (400, "device"))
        status, body = W.api("/api/audio/test", json.dumps({"volume": 100}).encode())
        self.assertEqual((status, json.loads(body)["error"]["field"]), (400, "volume"))

    def test_c_a_sounds_folder_saved_on_the_page_is_read_and_watched_at_once(self):
        folder = tempfile.mkdtemp(prefix="sounds-", dir=W.TMP.name)
        write_wav(os.path.join(folder, "Rain Night.wav"))
        sounds = W.NODE.subscribe("sounds")
        ids = lambda s: {x["id"] for x in s["noise"]}
        try:
            open_settings()
            mark = sounds.count()
            saved = time.monotonic()
            edit("audio.sounds_dir", folder)
            sounds.json(lambda s: "rain_night" in ids(s), timeout=3, after=mark)
            took = time.monotonic() - saved
            self.assertLess(took, 2.0)
            self.assertEqual(settings()["applies"]["audio.sounds_dir"], "now")
            # The new folder is watched: a file added there is listed too.
            mark = sounds.count()
            added = time.monotonic()
            write_wav(os.path.join(folder, "Creek.wav"))
            sounds.json(lambda s: {"rain_night", "creek"} <= ids(s), timeout=3, after=mark)
            W.MEASURED["settings page: sounds folder saved to ~/sounds"] = (
                f"{took:.2f} s; a file added there {time.monotonic() - added:.2f} s")
        finally:
            mark = sounds.count()
            W.api("/api/settings/reset", json.dumps({"keys": ["audio.sounds_dir"]}).encode())
            try:
                sounds.json(lambda s: "rain_night" not in ids(s), timeout=3, after=mark)
            finally:
                sounds.stop()

    def test_d_the_output_line_says_when_the_mixer_is_muted(self):
        open_settings()
        status = lambda: W.hook("audio-status").text  # noqa: E731
        W.wait_for(lambda: "does not play: choose another speaker" in status(), what="the output line")
        self.assertIn("null_noiseclock_test", inner(W.hook("audio-status")))
        self.assertNotIn("Nothing would be heard", status())
        # The readiness check's output_muted (a real mixer's is AlarmReadiness' own test), as ~/alarm carries it.
        W.DRIVER.execute_script("""NC.put('alarm', Object.assign({}, NC.state.alarm, {ready: {ok: false, problems: [
            {code: 'output_muted', message: "the mixer's Master playback switch is off"}]}}))""")
        W.wait_for(lambda: "Nothing would be heard: the speaker’s volume is off or muted." in status(), what="the muted mixer")
        self.assertIn("the mixer's Master playback switch is off", inner(W.hook("audio-status")))
