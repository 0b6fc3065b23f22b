"""The sleep programmes' pages (v1.1): /routines, /timers and the noise page's Mixes section,
in the same browser against the same node as test_web (which runs these as its own: the rig,
the node and the browser are test_web's, read at call time)."""
import json
import re
import time
import unittest

from selenium.webdriver.common.by import By

import test_web as W


def click(element):
    """Below the sticky top bar, in the middle of the screen."""
    W.DRIVER.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", element)
    element.click()
    return True


def press(selector, text):
    """Clicks the button with that text inside selector (lists redraw on every retained topic)."""
    def attempt():
        button = next(b for b in W.DRIVER.find_elements(By.CSS_SELECTOR, selector + " button") if b.text == text)
        return click(button)
    return W.wait_for(attempt, what=f"a click on {text}")


def countdown_seconds(text):
    """'19:58' or '1:02:03' as seconds."""
    parts = [int(p) for p in text.split(":")]
    seconds = 0
    for p in parts:
        seconds = seconds * 60 + p
    return seconds


def iso_epoch(iso):
    """Epoch seconds of an ISO 8601 time with its offset."""
    from datetime import datetime
    return datetime.fromisoformat(iso).timestamp()


class G_Programmes(unittest.TestCase):
    def test_a_routine_added_through_the_form_is_published_and_start_now_plays_it(self):
        routines = W.NODE.subscribe("routines")
        noise = W.NODE.subscribe("noise")
        W.open_page("/routines", 390, 844)
        selector = None
        try:
            form = W.wait_for(lambda: W.hook("routine-form"), what="the routine form")
            W.wait_for(lambda: form.find_elements(By.CSS_SELECTOR, "[name=sound] option[value=brown]"), what="the sounds")
            form.find_element(By.NAME, "label").send_keys("Web bedtime")
            W.DRIVER.execute_script("arguments[0].value = '21:45'", form.find_element(By.NAME, "start"))
            W.DRIVER.execute_script("arguments[0].value = '06:15'", form.find_element(By.NAME, "end"))
            # Weeknights only: Fri and Sat off.
            for day in ("fri", "sat"):
                click(form.find_element(By.CSS_SELECTOR, f"[name=repeat][value={day}]").find_element(By.XPATH, ".."))
            W.DRIVER.execute_script("const v = arguments[0]; v.value = 35; v.dispatchEvent(new Event('input', {bubbles: true}))",
                                    form.find_element(By.NAME, "volume"))
            for name, value in (("fade_in_seconds", "60"), ("fade_out_seconds", "0")):
                field = form.find_element(By.NAME, name)
                field.clear()
                field.send_keys(value)
            click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
            _, published = routines.json(lambda a: any(r["label"] == "Web bedtime" for r in a), timeout=5)
            routine = next(r for r in published if r["label"] == "Web bedtime")
            self.assertEqual((routine["start"], routine["end"], routine["sound"], routine["volume"]), ("21:45", "06:15", "brown", 35))
            self.assertEqual(routine["repeat"], ["mon", "tue", "wed", "thu", "sun"])
            self.assertEqual((routine["fade_in_seconds"], routine["fade_out_seconds"]), (60, 0))
            # The node's /api/state has it too.
            status, body = W.api("/api/state")
            self.assertEqual(status, 200)
            self.assertIn(routine["id"], [r["id"] for r in json.loads(body)["routines"]])
            selector = f'[data-nc="routine-row"][data-id="{routine["id"]}"]'
            W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, selector), what="the routine's row")
            row_text = W.fresh(lambda: W.css(selector).text)
            self.assertIn("21:45–06:15", row_text)
            self.assertIn("Mon, Tue, Wed, Thu, Sun", row_text)
            # Start now: ~/noise plays the routine's sound and names it; the row says until when.
            press(selector, "Start now")
            noise.json(lambda n: n["playing"] is True and n.get("routine") == routine["id"] and n["sound"] == "brown", timeout=5)
            W.wait_for(lambda: re.search(r"Playing until (\w+ )?06:15", W.DRIVER.find_element(By.CSS_SELECTOR, selector).text),
                       what="the row showing the active routine")
            W.NODE.publish("routine/add", json.dumps({"id": "shot_nap", "label": "Sunday nap", "start": "14:00",
                                                      "duration_minutes": 90, "repeat": ["sun"], "sound": "rain", "volume": 30}))
            W.wait_for(lambda: len(W.hooks("routine-row")) >= 2, what="two rows")
            W.DRIVER.execute_script("NC.put('audio', {device: 'default', status: 'ok', error: null})")  # the picture: a node with sound
            W.DRIVER.execute_script("window.scrollTo(0, 0)")
            W.shot("routines.png", 390, 844)
            W.NODE.publish("routine/delete", "shot_nap")
            # Stop ends it (no fade-out): the noise stops and no longer names it.
            press(selector, "Stop")
            noise.json(lambda n: n.get("routine") is None and n["playing"] is False, timeout=5, after=noise.count() - 1)
            # Edit: the form fills in; a new label and a duration instead of the end go out with routine/update.
            press(selector, "Edit")
            W.wait_for(lambda: form.find_element(By.NAME, "label").get_attribute("value") == "Web bedtime", what="the form filled in")
            self.assertEqual(form.find_element(By.NAME, "end").get_attribute("value"), "06:15")
            form.find_element(By.NAME, "label").clear()
            form.find_element(By.NAME, "label").send_keys("Web nap")
            click(form.find_element(By.CSS_SELECTOR, "[name=ends][value=duration]").find_element(By.XPATH, ".."))
            duration = W.wait_for(lambda: [e for e in [form.find_element(By.NAME, "duration_minutes")] if e.is_displayed()][0],
                                  what="the duration field")
            duration.clear()
            duration.send_keys("90")
            click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
            _, published = routines.json(lambda a: any(r["id"] == routine["id"] and r["label"] == "Web nap" for r in a),
                                         timeout=5, after=routines.count() - 1)
            edited = next(r for r in published if r["id"] == routine["id"])
            self.assertEqual((edited.get("duration_minutes"), edited.get("end"), edited["start"]), (90, None, "21:45"))
            W.wait_for(lambda: "21:45 · for 90 min" in W.DRIVER.find_element(By.CSS_SELECTOR, selector).text, what="the edited row")
            # Delete through the row (confirm accepted).
            press(selector, "Delete")
            W.DRIVER.switch_to.alert.accept()
            routines.json(lambda a: all(r["id"] != routine["id"] for r in a), timeout=5, after=routines.count() - 1)
        finally:
            routines.stop()
            noise.stop()
            if selector:
                W.NODE.publish("routine/stop", "")
            for r in json.loads(W.NODE.retained("routines") or "[]"):
                W.NODE.publish("routine/delete", r["id"])
            W.NODE.publish("noise/set", "OFF")

    def test_a_timer_from_a_preset_button_counts_down_on_the_node_s_clock(self):
        timers = W.NODE.subscribe("timers")
        W.open_page("/timers", 390, 844)
        try:
            nap = '#presets button[data-id="nap"]'
            W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, nap), what="the Nap preset button")
            # The preset buttons redraw on every retained ~/timer/presets and ~/timers: each read
            # finds the button afresh.
            text, height = W.fresh(lambda: (W.css(nap).text, W.css(nap).size["height"]))
            self.assertIn("Nap", text)
            self.assertGreaterEqual(height, 44)
            W.fresh(lambda: click(W.css(nap)))
            _, running = timers.json(lambda a: any(x["label"] == "Nap" for x in a), timeout=5)
            timer = next(x for x in running if x["label"] == "Nap")
            self.assertEqual(timer["seconds"], 1200)
            row_selector = f'[data-nc="timer-row"][data-id="{timer["id"]}"]'

            def shown():
                text = W.DRIVER.find_element(By.CSS_SELECTOR, row_selector + ' [data-nc="countdown"]').text
                return countdown_seconds(text) if re.fullmatch(r"\d+:\d\d(:\d\d)?", text) else None
            first = W.wait_for(shown, what="the countdown")
            # Against the node's clock (the test clock), not the browser's.
            expected = iso_epoch(timer["ends_at"]) - W.NODE.now()
            self.assertLessEqual(abs(first - expected), 2, (first, expected))
            self.assertTrue(19 * 60 <= first <= 20 * 60, first)  # never more than the timer's length
            W.wait_for(lambda: shown() is not None and shown() <= first - 1, timeout=3, what="the countdown ticking")
            # A second one from the minutes form; then cancel one, and cancel all.
            form = W.DRIVER.find_element(By.ID, "minutes-form")
            minutes = form.find_element(By.NAME, "minutes")
            minutes.clear()
            minutes.send_keys("5")
            form.find_element(By.NAME, "label").send_keys("Tea")
            click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
            timers.json(lambda a: len(a) == 2 and any(x["label"] == "Tea" and x["seconds"] == 300 for x in a), timeout=5)
            W.wait_for(lambda: len(W.hooks("timer-row")) == 2, what="two running timers")
            W.DRIVER.execute_script("NC.put('audio', {device: 'default', status: 'ok', error: null})")  # the picture: a node with sound
            W.DRIVER.execute_script("window.scrollTo(0, 0)")
            W.shot("timers.png", 390, 844)
            press(row_selector, "Cancel")
            timers.json(lambda a: len(a) == 1 and a[0]["label"] == "Tea", timeout=5, after=timers.count() - 1)
            W.fresh(lambda: click(W.css('#presets button[data-id="power_nap"]')))
            timers.json(lambda a: len(a) == 2, timeout=5, after=timers.count() - 1)
            W.wait_for(lambda: W.DRIVER.find_element(By.ID, "cancel-all").is_displayed(), what="Cancel all")
            W.fresh(lambda: click(W.DRIVER.find_element(By.ID, "cancel-all")))
            timers.json(lambda a: a == [], timeout=5, after=timers.count() - 1)
            W.wait_for(lambda: W.hooks("timer-row") == [], what="no running timers shown")
        finally:
            timers.stop()
            W.NODE.publish("timer/cancel", "all")

    def test_presets_are_edited_with_timer_presets_set(self):
        presets = W.NODE.subscribe("timer/presets")
        W.open_page("/timers", 390, 844)
        try:
            W.wait_for(lambda: len(W.DRIVER.find_elements(By.CSS_SELECTOR, "#preset-rows .preset-row")) == 3, what="three preset rows")
            click(W.DRIVER.find_element(By.ID, "add-preset"))
            W.wait_for(lambda: len(W.DRIVER.find_elements(By.CSS_SELECTOR, "#preset-rows .preset-row")) == 4, what="a fourth row")
            last = "#preset-rows .preset-row:last-child"

            def fill():
                W.css(last + " [name=label]").send_keys("Tea")
                field = W.css(last + " [name=minutes]")
                field.clear()
                field.send_keys("4")
            W.fresh(fill)
            click(W.DRIVER.find_element(By.CSS_SELECTOR, "#preset-form [type=submit]"))
            presets.json(lambda a: len(a) == 4 and {"id": "tea", "label": "Tea", "minutes": 4, "sound": "chime"} in a, timeout=5)
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '#presets button[data-id="tea"]'), what="the Tea button")
            # Removed again.
            press('#preset-rows .preset-row[data-id="tea"]', "Remove")
            click(W.DRIVER.find_element(By.CSS_SELECTOR, "#preset-form [type=submit]"))
            presets.json(lambda a: len(a) == 3 and all(p["id"] != "tea" for p in a), timeout=5, after=presets.count() - 1)
        finally:
            presets.stop()
            W.NODE.publish("timer/presets/set", json.dumps([
                {"id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"},
                {"id": "power_nap", "label": "Power nap", "minutes": 10, "sound": "chime"},
                {"id": "rest", "label": "Rest", "minutes": 45, "sound": "chime"}]))

    def test_a_mix_created_on_the_noise_page_appears_in_sounds(self):
        sounds = W.NODE.subscribe("sounds")
        W.open_page("/noise", 390, 844)
        try:
            form = W.wait_for(lambda: W.hook("mix-form"), what="the mix form")
            W.wait_for(lambda: len(W.hooks("mix-layer")) == 2, what="two layers")
            form.find_element(By.NAME, "mix_name").send_keys("Web rain")
            click(W.DRIVER.find_element(By.ID, "mix-add-layer"))
            W.wait_for(lambda: len(W.hooks("mix-layer")) == 3, what="a third layer")
            # One script finds the third layer and sets it: nothing held while the list may redraw.
            W.DRIVER.execute_script(
                "const row = document.querySelectorAll('[data-nc=mix-layer]')[2];"
                "row.querySelector('select').value = 'ocean';"
                "const v = row.querySelector('input[type=range]'); v.value = 30; v.dispatchEvent(new Event('input', {bubbles: true}))")
            click(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
            _, catalog = sounds.json(lambda s: any(x["id"] == "web_rain" for x in s["noise"]), timeout=5)
            mix = next(x for x in catalog["noise"] if x["id"] == "web_rain")
            self.assertEqual(mix["category"], "mix")
            self.assertEqual(mix["name"], "Web rain")
            self.assertEqual(mix["layers"], [{"sound": "brown", "volume": 100}, {"sound": "rain", "volume": 60},
                                             {"sound": "ocean", "volume": 30}])
            # A sound card to play it, and a row to delete it.
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, "#sounds input[value=web_rain]"), what="the mix's sound card")
            press('[data-nc="mix-row"][data-id="web_rain"]', "Delete")
            W.DRIVER.switch_to.alert.accept()
            sounds.json(lambda s: all(x["id"] != "web_rain" for x in s["noise"]), timeout=5, after=sounds.count() - 1)
            W.wait_for(lambda: not W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="mix-row"][data-id="web_rain"]'),
                       what="the row gone")
        finally:
            sounds.stop()
            W.NODE.publish("mix/delete", "web_rain")

    def test_every_programme_string_has_a_korean_translation(self):
        W.open_page("/routines", 390, 844)
        keys = ["routines", "timers", "add_routine", "start_now", "cancel_all", "mixes", "save_mix", "layer_volume",
                "timer_presets", "fade_out_seconds", "duration_minutes", "no_timers", "ends_at"]
        for key in keys:
            english, korean = W.translations(key)
            self.assertNotEqual(english, key)
            self.assertNotEqual(korean, english, key)


if __name__ == "__main__":
    unittest.main()
