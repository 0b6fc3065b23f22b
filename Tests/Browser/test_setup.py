"""The first-start wizard (http-api v1.4 "First start, /setup"), as a person meets it: a fresh node of
its own (no settings.json, no working sound device, no alarm; two speakers of the tests' ALSA capture
configuration) opened in test_web's Chromium at a phone's size and a tablet's, in English and in
Korean. Signing in opens /setup by itself; the wizard is then done end to end by taps — language, a
zone found by searching, a speaker with its test sound (heard on the capture), the tests' real
mosquitto with Test, a weekday 06:30 alarm with the gentle fade — and that alarm rings at its minute
on the node's test clock, heard on the speaker chosen. The taps from the first screen to the ring are
counted (bound: 15 plus typing) and quoted. Each step's targets are at least 44 px."""
import datetime
import json
import os
import tempfile
import time
import unittest
import zoneinfo

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

import rig
import test_web as W

SPEAKERS = {"nc_bedside": "NoiseClock bedside speaker", "nc_kitchen": "NoiseClock kitchen speaker"}
# Words a Korean page may show in Latin letters: names that are no words of the app's (the language's
# own name, the speakers' descriptions from ALSA, zones, the broker, Home Assistant, units).
NOT_ENGLISH = {"English", "NoiseClock", "bedside", "kitchen", "speaker", "Home", "Assistant", "MQTT", "TLS", "Europe", "Berlin",
               "Asia", "Seoul", "America", "New", "York", "UTC", "null", "noiseclock", "test"}
LATIN_WORDS = """
  const text = [document.querySelector('main'), document.querySelector('header')].map((e) => e ? e.innerText : '').join(' ');
  return text.match(/[A-Za-z]{3,}/g) || [];"""
SMALL_TARGETS = """
  const problems = [];
  for (const e of document.querySelectorAll('main input:not([type=hidden]), main select, main button, main a[href]')) {
    const box = (e.closest('label') || e).getBoundingClientRect();
    if (!box.width || e.closest('[hidden]')) continue;
    if (box.height < 43.5) problems.push(Math.round(box.height) + 'px: ' + e.outerHTML.slice(0, 80));
  }
  return problems;"""


class Taps:
    """Clicks as a person taps (scrolled into view first), counted; typing counted apart."""

    def __init__(self):
        self.taps = 0
        self.typed = 0

    def tap(self, element):
        """`element`, or the hook of that name (or what a function finds) found at the tap: a step the
        page draws again (its state arriving) leaves an element found before it stale, where a finger
        lands on the new one."""
        for attempt in range(3):
            target = W.hook(element) if isinstance(element, str) else element() if callable(element) else element
            try:
                W.DRIVER.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", target)
                target.click()
                break
            except StaleElementReferenceException:
                if not (isinstance(element, str) or callable(element)) or attempt == 2:
                    raise
        self.taps += 1

    def type(self, element, text):
        element.send_keys(text)
        self.typed += 1


def step_is(name, timeout=10.0):
    return W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, f'[data-nc="setup-step"][data-step="{name}"]'),
                      timeout=timeout, what=f"the wizard's {name} step")


def said():
    return W.DRIVER.find_element(By.CSS_SELECTOR, '[data-nc="setup-said"]').text


def next_weekday_at(zone, now, hour, minute):
    """Epoch seconds of the next Monday-to-Friday hour:minute in zone, at least a day after now."""
    local = datetime.datetime.fromtimestamp(now, zoneinfo.ZoneInfo(zone)).date() + datetime.timedelta(days=1)
    while local.weekday() >= 5:
        local += datetime.timedelta(days=1)
    return datetime.datetime(local.year, local.month, local.day, hour, minute, tzinfo=zoneinfo.ZoneInfo(zone)).timestamp()


class Q_SetupWizard(unittest.TestCase):
    def run_wizard(self, language, width, height, search, zone):
        with tempfile.TemporaryDirectory(prefix="noiseclock-setup-") as directory:
            node = rig.Node(W.NODE.binary, directory, W.BROKER.port, node_id=f"setup_{language}_{width}")
            node.capture = rig.CapturePCMs(directory, SPEAKERS)
            node.environment.update(node.capture.environment)
            node.start()
            fired = node.subscribe("alarm/fired")
            driver = W.DRIVER
            taps = Taps()
            began = time.monotonic()
            try:
                rig.set_viewport(driver, width, height)
                driver.get(f"{node.url}/?token={node.token}")
                # No working sound device and no alarm: the face sends a fresh node to the wizard.
                step_is("language")
                self.assertTrue(driver.current_url.startswith(node.url + "/setup"), driver.current_url)
                problems = []

                def check_targets(where):
                    problems.extend(f"{where}: {p}" for p in driver.execute_script(SMALL_TARGETS))
                    if language == "ko" and where != "language":  # Korean from the step after choosing it
                        english = sorted(set(driver.execute_script(LATIN_WORDS)) - NOT_ENGLISH)
                        problems.extend(f"{where}: English on the Korean page: {english}" for _ in english[:1])

                check_targets("language")
                shots = language == "en" and width == 390  # docs/web.md's pictures (with SCREENSHOT_DIR)
                if shots:
                    W.shot("setup-language.png", width, height)
                taps.tap(f"language-{language}")
                step_is("zone")
                self.assertEqual(driver.execute_script("return document.documentElement.lang"), language)
                self.assertIn("English" if language == "en" else "한국어", said())
                check_targets("zone")
                # The browser's own zone first; this person's clock is elsewhere: found by searching.
                self.assertTrue(W.hook("zone-browser").get_attribute("data-zone"))
                search_box = W.hook("zone-search")
                taps.tap(search_box)
                taps.type(search_box, search)
                option = W.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'#zone-results [data-zone="{zone}"]'),
                                    what=f"{zone} among the results")
                if shots:
                    W.shot("setup-zone.png", width, height)
                taps.tap(option)
                step_is("speaker")
                self.assertIn(zone, said())

                check_targets("speaker")
                bedside = W.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-nc="speaker"][data-device="nc_bedside"]'),
                                     what="the bedside speaker by its description")
                self.assertIn(SPEAKERS["nc_bedside"], bedside.text)
                self.assertNotIn("nc_bedside", bedside.text, "a speaker is shown by its description")
                taps.tap(bedside.find_element(By.CSS_SELECTOR, '[data-nc="speaker-test"]'))
                W.wait_for(lambda: SPEAKERS["nc_bedside"] in said(), what="the test sound's answer")
                if shots:
                    W.shot("setup-speaker.png", width, height)
                W.wait_for(lambda: node.capture.tone_at("nc_bedside", 1318.5)[1] > 0.02, what="the test sound heard on the speaker")
                taps.tap(bedside.find_element(By.CSS_SELECTOR, '[data-nc="speaker-use"]'))
                step_is("broker")
                W.wait_for(lambda: json.loads(self.api(node, "/api/state")[1])["audio"]["status"] == "ok", what="the chosen speaker in use")

                check_targets("broker")
                self.assertEqual(W.hook("broker-host").get_attribute("value"), "127.0.0.1")
                taps.tap("broker-test")
                result = W.wait_for(lambda: (lambda e: e if e.get_attribute("data-ok") else None)(W.hook("broker-result")),
                                    timeout=15, what="the broker test's answer")
                self.assertEqual(result.get_attribute("data-ok"), "true", result.text)
                self.assertIn(f"127.0.0.1:{W.BROKER.port}", result.text)
                if shots:
                    W.shot("setup-broker.png", width, height)
                taps.tap("broker-use")
                step_is("alarm")

                check_targets("alarm")
                fade = W.hook("setup-fade")
                self.assertEqual(fade.get_attribute("value"), "120", "the gentle fade is the default")
                time_field = W.hook("setup-time")
                taps.tap(time_field)
                taps.type(time_field, "06:30")
                taps.tap("preset-weekdays")
                if shots:
                    W.shot("setup-alarm.png", width, height)
                taps.tap("alarm-add")
                step_is("done")
                check_targets("done")
                self.assertIn("06:30", said())
                if shots:
                    W.shot("setup-done.png", width, height)
                taps.tap("setup-finish")
                W.wait_for(lambda: driver.current_url.rstrip("/") == node.url and W.hooks("time"), what="the face after Finish")
                W.wait_for(lambda: driver.execute_script("return !!(NC.state.node && NC.state.node.setup_done === true)"),
                           what="setup_done on the face")
                self.assertFalse(W.hook("setup").is_displayed(), "no Set up this clock once finished")
                # The language chosen holds on the face, loaded anew from the node (no restart in between).
                self.assertEqual(driver.execute_script("return [NC.state.node.locale, document.documentElement.lang]"), [language, language])
                seconds = time.monotonic() - began
                self.assertEqual(problems, [], "\n".join(problems))

                with open(os.path.join(node.state_dir, "settings.json")) as f:
                    stored = json.load(f)
                self.assertIs(stored.get("setup_done"), True)
                self.assertEqual(stored["values"]["locale"], language)
                self.assertEqual(stored["values"]["timezone"], zone)
                self.assertEqual(stored["values"]["audio.device"], "nc_bedside")
                alarms = json.loads(self.api(node, "/api/state")[1])["alarms"]
                self.assertEqual([(a["time"], a["repeat"], a["ramp_seconds"]) for a in alarms],
                                 [("06:30", ["mon", "tue", "wed", "thu", "fri"], 120)])

                # The alarm rings at its minute on the node's clock, on the speaker chosen.
                ring = next_weekday_at(zone, node.now(), 6, 30)
                heard_before = len(node.capture.left("nc_bedside"))
                node.set_clock(ring - 2)
                _, payload = fired.json(timeout=15)
                self.assertEqual(payload.get("id"), alarms[0]["id"])
                fired_at = node.now()
                W.wait_for(lambda: len(node.capture.left("nc_bedside")) > heard_before + 3 * rig.CapturePCMs.RATE, timeout=15,
                           what="three seconds of the ring on the speaker")
                ringing = node.capture.left("nc_bedside")[heard_before:]
                peak = max(abs(v) for v in ringing)
                self.assertGreater(peak, 0.0001, "the ring is heard from its first seconds, rising gently")
                self.assertLess(fired_at - ring, 5)
                # Past the 2-minute fade (the node's clock moved on; the ring lasts 10 minutes): full volume.
                risen_from = len(node.capture.left("nc_bedside"))
                node.set_clock(ring + 125)
                W.wait_for(lambda: len(node.capture.left("nc_bedside")) > risen_from + 2 * rig.CapturePCMs.RATE, timeout=15,
                           what="two more seconds of the ring")
                risen = max(abs(v) for v in node.capture.left("nc_bedside")[risen_from + rig.CapturePCMs.RATE:])
                self.assertGreater(risen, 0.05, "the ring after its fade")
                W.MEASURED[f"setup wizard {language} {width}x{height}"] = (
                    f"{taps.taps} taps and {taps.typed} typed fields from the first screen to a ringing alarm "
                    f"({seconds:.0f} s in the browser); ring peak {peak:.4f} in its first 3 s, {risen:.3f} after the 2-minute fade")
                self.assertLessEqual(taps.taps, 15)
            finally:
                fired.stop()
                node.stop()
                rig.set_viewport(driver, 800, 480)
                W.sign_in()

    @staticmethod
    def api(node, path, body=None):
        import urllib.request
        request = urllib.request.Request(node.url + path, data=body, headers={"Authorization": f"Bearer {node.token}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()

    def test_a_fresh_node_set_up_on_a_phone_in_english(self):
        self.run_wizard("en", 390, 844, "Berlin", "Europe/Berlin")

    def test_a_fresh_node_set_up_on_a_tablet_in_korean(self):
        self.run_wizard("ko", 820, 1180, "Seoul", "Asia/Seoul")

    def test_a_fresh_node_set_up_on_a_phone_in_korean(self):
        self.run_wizard("ko", 390, 844, "Seoul", "Asia/Seoul")

    def test_a_fresh_node_set_up_on_a_tablet_in_english(self):
        self.run_wizard("en", 820, 1180, "New_York", "America/New_York")

    def test_every_word_of_the_wizard_and_the_fade_has_korean(self):
        W.open_page("/setup")
        W.wait_for(lambda: W.DRIVER.execute_script("return typeof SetupWords !== 'undefined' && !!NC.state.node"), what="the wizard")
        missing = W.DRIVER.execute_script("""
          const gaps = (t) => Object.keys(t.en).filter((k) => !(k in t.ko) || t.ko[k] === t.en[k] && /[a-z]{3}/i.test(t.en[k]));
          return gaps(SetupWords).concat(gaps(AlarmFade.words).map((k) => 'fade.' + k));""")
        self.assertEqual(missing, [])


class R_AlarmFormLikeAPhone(unittest.TestCase):
    """The alarm form as a phone's clock app (issue 41 item 6): Weekdays / Weekends / Every day, the fade
    in minutes with the gentle default, and a second alarm like one there is asks first. On test_web's
    node at a phone's size; the taps for a weekday 06:30 alarm with a gentle fade are counted (bound 5)."""

    def test_a_weekday_0630_alarm_with_a_gentle_fade_in_at_most_5_taps_and_a_twin_asks_first(self):
        W.open_page("/alarms", 390, 844)
        form = W.wait_for(lambda: W.hook("alarm-form"), what="the alarm form")
        W.wait_for(lambda: W.DRIVER.execute_script("return Array.isArray(NC.state.alarms)"), what="the alarms")
        before = {a["id"] for a in W.DRIVER.execute_script("return NC.state.alarms")}
        sub = W.NODE.subscribe("alarms")
        added = []
        try:
            fade = W.hook("alarm-fade")
            self.assertEqual(fade.get_attribute("value"), "120")
            self.assertEqual(W.DRIVER.execute_script("return arguments[0].selectedOptions[0].text", fade), "Gentle · 2 min")
            taps = Taps()

            def weekday_0630():
                taps.tap(form.find_element(By.NAME, "time"))
                taps.type(form.find_element(By.NAME, "time"), "06:30")
                taps.tap("preset-weekdays")
                taps.tap(form.find_element(By.CSS_SELECTOR, "[type=submit]"))

            weekday_0630()
            _, alarms = sub.json(lambda a: any(x["id"] not in before for x in a), timeout=5)
            first = next(x for x in alarms if x["id"] not in before)
            added.append(first["id"])
            self.assertEqual((first["time"], first["repeat"], first["ramp_seconds"]), ("06:30", ["mon", "tue", "wed", "thu", "fri"], 120))
            W.MEASURED["alarm form"] = f"a weekday 06:30 alarm with the gentle fade in {taps.taps} taps and {taps.typed} typed field"
            self.assertLessEqual(taps.taps, 5)
            # The same again: asked first, nothing sent until "Add another".
            W.wait_for(lambda: W.DRIVER.execute_script("return NC.state.alarms.some((a) => a.id === arguments[0])", first["id"]),
                       what="the page to know the first alarm")
            mark = sub.count()
            weekday_0630()
            ask = W.wait_for(lambda: (lambda e: e if e.is_displayed() else None)(W.hook("alarm-duplicate")), what="the question")
            self.assertIn("06:30", ask.text)
            self.assertIn("Weekdays", ask.text)
            self.assertEqual(len(W.DRIVER.execute_script("return NC.state.alarms")), len(before) + 1, "nothing added before the answer")
            W.hook("alarm-duplicate-add").click()
            _, alarms = sub.json(lambda a: sum(x["time"] == "06:30" and x["id"] not in before for x in a) == 2, timeout=5, after=mark)
            added += [x["id"] for x in alarms if x["id"] not in before and x["id"] not in added]
        finally:
            sub.stop()
            for alarm_id in added:
                W.NODE.publish("alarm/delete", alarm_id)
