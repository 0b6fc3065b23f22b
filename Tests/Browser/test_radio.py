"""Radio in the web app (v1.3, issue 29): the /radio page (add, test, listen, delete), the stations
in the noise and alarm pickers, and "now playing" on the face, in the same browser against the
same node as test_web (which runs this as its own: the rig, the node and the browser are
test_web's, read at call time).

The station the test adds is a real HTTP server on loopback serving a 2 s MP3 that FFmpeg makes
here (a 440 Hz tone), so `station/test` really connects and decodes; the other points at a port
nobody listens on (`refused`). The test node has no sound card, so nothing plays and no stream
title comes from the player: the face's title is put into ~/noise's state in the page (the title
on ~/noise from a live Icecast is StationPlayerNodeTests', in `make stream-test`)."""
import json
import os
import re
import subprocess
import time
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W
from test_node_replies import closed_detail
from test_programmes import click


def serve_file(path, content_type):
    """An HTTP server on a loopback port of its own answering every GET with the file."""
    with open(path, "rb") as f:
        return W.serve_page(f.read(), content_type)


def row(station):
    return W.css(f'[data-nc="station-row"][data-id="{station}"]')


def in_row(station, hook):
    return row(station).find_element(By.CSS_SELECTOR, f'[data-nc="{hook}"]')


def row_read(station, hook, read=lambda e: e.text):
    """read() of an element in a station's row, found again when the list redraws under it."""
    return W.fresh(lambda: read(in_row(station, hook)))


def press(station, hook):
    """Clicks a button of a station's row (again, if the list redrew it between finding and clicking)."""
    W.wait_for(lambda: click(in_row(station, hook)), what=f"a click on {hook} of {station}")


def stations():
    return [s["id"] for s in json.loads(W.api("/api/state")[1]).get("stations", [])]


class O_Radio(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mp3 = os.path.join(W.TMP.name, "tone.mp3")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                        "-ac", "1", "-ar", "44100", "-b:a", "64k", cls.mp3], check=True, timeout=30)
        cls.server = serve_file(cls.mp3, "audio/mpeg")
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}/tone.mp3"
        cls.closed = f"http://127.0.0.1:{rig.free_port()}/nothing.mp3"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def tearDown(self):
        W.NODE.publish("noise/set", json.dumps({"playing": False, "sound": "brown"}))
        W.NODE.publish("alarm/delete", "radio_wake")
        for station in ("test_tone", "closed"):
            W.NODE.publish("station/delete", station)
        W.wait_for(lambda: not set(stations()) & {"test_tone", "closed"}, what="the test's stations gone")

    def test_a_station_is_added_tested_listened_to_and_deleted_on_the_radio_page(self):
        started = time.monotonic()
        W.open_page("/radio", 390, 844)
        W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.style)"), what="the radio page's state")
        self.assertIn("/radio", [a.get_attribute("pathname") for a in W.DRIVER.find_elements(By.CSS_SELECTOR, ".topbar a")])
        form = W.hook("station-form")
        # A refusal shows under its field, in the node's words, and adds nothing.
        form.find_element(By.NAME, "name").send_keys("Test tone")
        form.find_element(By.NAME, "url").send_keys("ftp://example.org/radio")
        click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
        error = W.wait_for(lambda: [e for e in form.find_elements(By.CSS_SELECTOR, '.error[data-for="url"]') if e.is_displayed()],
                           what="the url's refusal")[0]
        self.assertIn("http:// or https://", error.text)
        self.assertNotIn("test_tone", stations())
        # Added: the row appears with its name and address, the form empties, and says so by its button
        # (the new row is at the top, out of sight on a phone: the trial saw the form clear without a word).
        url_field = form.find_element(By.NAME, "url")
        url_field.clear()
        url_field.send_keys(self.url)
        click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
        W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="station-row"][data-id="test_tone"]'), what="the new row")
        added = W.wait_for(lambda: (lambda e: e if e.is_displayed() else None)(W.hook("station-added")), what="Added: Test tone")
        self.assertTrue(added.text.startswith("Added: Test tone."), added.text)
        self.assertTrue(W.DRIVER.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight",
                                                added), "the confirmation in view, by the button")
        # No machine's word on the page ("node": the trial did not know it).
        self.assertNotRegex(W.DRIVER.find_element(By.TAG_NAME, "main").text, r"(?i)\bnode\b")
        self.assertEqual(json.loads(W.NODE.retained("stations")), [{"id": "test_tone", "name": "Test tone", "url": self.url}])
        self.assertIn("Test tone", W.fresh(lambda: row("test_tone").text))
        self.assertEqual(form.find_element(By.NAME, "name").get_attribute("value"), "")
        # Test: the probe's answer as one line.
        press("test_tone", "station-test-button")
        W.wait_for(lambda: row("test_tone").find_element(By.CSS_SELECTOR, '[data-nc="station-test"][data-ok]'),
                   timeout=10, what="the test's answer")
        text = row_read("test_tone", "station-test")
        self.assertEqual(row_read("test_tone", "station-test", lambda e: e.get_attribute("data-ok")), "true", text)
        self.assertRegex(text, r"^First audio in \d+ ms · MP3$")  # the file's server announces no bitrate and no title
        W.MEASURED["radio page: station/test of a loopback MP3"] = text
        # A station whose port refuses: the cause in words, its code (refused) behind Details.
        W.NODE.publish("station/add", json.dumps({"id": "closed", "name": "Closed", "url": self.closed}))
        W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="station-row"][data-id="closed"]'), what="the second row")
        press("closed", "station-test-button")
        W.wait_for(lambda: row("closed").find_element(By.CSS_SELECTOR, '[data-nc="station-test"][data-ok="false"]'),
                   timeout=10, what="the refused test's answer")
        self.assertEqual(row_read("closed", "station-test", lambda e: W.DRIVER.execute_script(
            "const c = arguments[0].cloneNode(true); c.querySelector('details').remove(); return c.textContent", e)),
            "No audio: the connection is refused")
        self.assertIn("refused", row_read("closed", "station-test", closed_detail))
        # The first row's answer stayed through the redraws.
        self.assertRegex(row_read("test_tone", "station-test"), r"^First audio")
        # Listen: the noise plays the station; the button becomes Stop, and Stop stops it.
        noise = W.NODE.subscribe("noise")
        try:
            press("test_tone", "station-listen")
            noise.json(lambda n: n["playing"] is True and n["sound"] == "radio:test_tone" and n["station"] == "test_tone")
            W.wait_for(lambda: in_row("test_tone", "station-listen").get_attribute("aria-pressed") == "true", what="Stop")
            self.assertEqual(row_read("test_tone", "station-listen"), "Stop")
            self.assertEqual(row_read("test_tone", "station-now"), "Playing")
            self.assertEqual(row_read("closed", "station-listen"), "Listen")
            if W.SHOTS:
                W.DRIVER.execute_script("scrollTo(0, 0)")
                W.shot("radio.png", 390, 844)
            # While the stream is down, ~/noise's error shows in the row (put into the page's state: this node plays nothing).
            W.DRIVER.execute_script("NC.put('noise', Object.assign({}, NC.state.noise, {error: 'stream unavailable (refused)'}))")
            # In words; the node's own text behind Details (it showed "audio_unavailable: cannot open …" raw).
            W.wait_for(lambda: row("test_tone").find_element(By.CSS_SELECTOR, '[data-nc="station-error"] span').text
                       == "No sound comes from the station.", what="the stream's error in the row")
            self.assertEqual(row_read("test_tone", "station-error", closed_detail), "Detailsstream unavailable (refused)")
            press("test_tone", "station-listen")
            noise.json(lambda n: n["playing"] is False, after=noise.count() - 1)
        finally:
            noise.stop()
        # Delete, asked first; a station an alarm rings is refused with the alarm named, in the row.
        W.NODE.publish("alarm/add", json.dumps({"id": "radio_wake", "time": "06:30", "sound": "radio:test_tone"}))
        W.wait_for(lambda: any(a["id"] == "radio_wake" for a in json.loads(W.api("/api/state")[1])["alarms"]), what="the alarm")
        press("test_tone", "station-delete")
        W.DRIVER.switch_to.alert.accept()
        refusal = W.wait_for(lambda: next((e.text for e in row("test_tone").find_elements(By.CSS_SELECTOR, ".error") if e.is_displayed()),
                                          None), what="the in_use refusal")
        self.assertIn("alarm radio_wake", refusal)
        W.NODE.publish("alarm/delete", "radio_wake")
        W.wait_for(lambda: not any(a["id"] == "radio_wake" for a in json.loads(W.api("/api/state")[1])["alarms"]), what="the alarm gone")
        press("test_tone", "station-delete")
        W.DRIVER.switch_to.alert.accept()
        W.wait_for(lambda: not W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="station-row"][data-id="test_tone"]'), what="the row gone")
        self.assertEqual(stations(), ["closed"])
        # The page's words in Korean (the node's locale, as ~/node would bring it).
        W.DRIVER.execute_script("NC.put('node', Object.assign({}, NC.state.node, {locale: 'ko'}))")
        self.assertEqual(W.DRIVER.find_element(By.CSS_SELECTOR, "h1").text, "라디오")
        self.assertEqual(form.find_element(By.CSS_SELECTOR, "[type=submit]").text, "방송국 추가")
        self.assertEqual(row_read("closed", "station-listen"), "듣기")
        W.MEASURED["radio page test"] = f"{time.monotonic() - started:.1f} s"

    def test_every_radio_string_has_a_korean_translation(self):
        """radio.js's own words (the same keys in both languages, none left English) and the app's."""
        with open(os.path.join(rig.ROOT, "Resources", "web", "radio.js")) as f:
            source = f.read()
        english, korean = (dict(re.findall(r"(\w+): '([^']*)'", source[source.index(a):source.index(b)]))
                           for a, b in (("en: {", "ko: {"), ("ko: {", "};")))
        self.assertEqual(sorted(english), sorted(korean))
        self.assertGreater(len(english), 20)
        self.assertEqual([k for k in english if english[k] == korean[k] and not re.fullmatch(r"[{}\w /]*kb/s", english[k])], [])
        for key in ("radio", "now_playing"):
            en, ko = W.translations(key)
            self.assertNotEqual(en, key)
            self.assertNotEqual(ko, en, key)

    def test_stations_are_in_the_pickers_and_the_face_shows_what_plays(self):
        W.NODE.publish("station/add", json.dumps({"id": "test_tone", "name": "Test tone", "url": self.url}))
        W.wait_for(lambda: "test_tone" in stations(), what="the station")
        # The noise page: a sound among the others, after the mixes.
        W.open_page("/noise", 390, 844)
        noise = W.NODE.subscribe("noise")
        try:  # the choices redraw with every ~/sounds: found and clicked again if one went stale
            W.wait_for(lambda: click(W.css('#sounds input[value="radio:test_tone"]').find_element(By.XPATH, "..")), what="the station")
            noise.json(lambda n: n["sound"] == "radio:test_tone")
        finally:
            noise.stop()
        # The alarm form: the alarm's sound and the pre-alarm sound, under Radio.
        W.open_page("/alarms", 390, 844)
        for name in ("sound", "pre_alarm_sound"):
            option = f'select[name="{name}"] optgroup option[value="radio:test_tone"]'
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, option), what=f"the station in {name}")
            self.assertEqual(W.fresh(lambda: [W.css(option).get_attribute("textContent"),
                                              W.css(option).find_element(By.XPATH, "..").get_attribute("label")]), ["Test tone", "Radio"])
        # The face while it plays: the station's name, then the stream's title; nothing once it stops.
        W.set_style(W.DEFAULT_STYLE)
        W.open_page("/", 390, 844)
        W.wait_for(lambda: re.fullmatch(r"\d\d:\d\d", W.face_text() or ""), what="the face")
        now = W.hook("now-playing")
        self.assertFalse(now.is_displayed())
        W.NODE.publish("noise/set", "ON")
        W.wait_for(lambda: now.is_displayed() and W.hook("now-playing-station").text == "Test tone", what="the station on the face")
        self.assertEqual(W.hooks("now-playing-title"), [])  # the stream named nothing yet
        W.DRIVER.execute_script("NC.put('noise', Object.assign({}, NC.state.noise, {title: 'Kind of Blue — So What'}))")
        W.wait_for(lambda: W.hooks("now-playing-title") and W.hook("now-playing-title").text == "Kind of Blue — So What",
                   what="the title on the face")
        # One line, as a reader hears it.
        self.assertEqual(now.get_attribute("textContent"), "Now playing: Test tone · Kind of Blue — So What")
        # A line of its own: clear of the digits, inside the screen.
        box = W.DRIVER.execute_script("""
            const r = (s) => document.querySelector(s).getBoundingClientRect();
            const n = r('[data-nc="now-playing"]'), t = r('[data-nc="time"]');
            return {clear: n.top >= t.bottom || n.bottom <= t.top, inside: n.left >= 0 && n.right <= innerWidth && n.bottom <= innerHeight};""")
        self.assertEqual(box, {"clear": True, "inside": True})
        W.shot("face-now-playing.png", 480, 800)
        W.NODE.publish("noise/set", "OFF")
        W.wait_for(lambda: not now.is_displayed(), what="the line gone when the noise stops")
