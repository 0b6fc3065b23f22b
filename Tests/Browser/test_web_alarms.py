"""The alarms page: adding, editing and ringing alarms (run by test_web, with its node and browser)."""
import json
import time
import unittest

from selenium.webdriver.common.by import By

import test_web as W


class C_Alarms(unittest.TestCase):
    def test_an_alarm_added_through_the_form_appears_on_alarms(self):
        W.open_page("/alarms", 480, 800)
        sub = W.NODE.subscribe("alarms")
        try:
            form = W.wait_for(lambda: W.hook("alarm-form"), what="the alarm form")
            time_input = form.find_element(By.NAME, "time")
            W.DRIVER.execute_script("arguments[0].value = '06:30'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", time_input)
            label = form.find_element(By.NAME, "label")
            label.clear()
            label.send_keys("Wake up")
            # v1.1 fields in "More options": the ramp starts at 20, the pre-alarm plays rain for 10 minutes.
            form.find_element(By.TAG_NAME, "summary").click()
            for name, value in (("start_volume", "20"), ("pre_alarm_minutes", "10")):
                form.find_element(By.NAME, name).clear()
                form.find_element(By.NAME, name).send_keys(value)
            W.DRIVER.execute_script("arguments[0].value = 'rain'", form.find_element(By.NAME, "pre_alarm_sound"))
            for day in ("mon", "wed", "fri"):
                W.DRIVER.execute_script("arguments[0].click()", form.find_element(By.CSS_SELECTOR, f"input[name=repeat][value={day}]"))
            form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
            _, alarms = sub.json(lambda a: any(x["label"] == "Wake up" for x in a), timeout=5)
            alarm = next(x for x in alarms if x["label"] == "Wake up")
            self.assertEqual(alarm["time"], "06:30")
            self.assertEqual(alarm["repeat"], ["mon", "wed", "fri"])
            self.assertEqual((alarm["start_volume"], alarm["pre_alarm_minutes"], alarm["pre_alarm_sound"]), (20, 10, "rain"))
            self.assertTrue(alarm["enabled"])
            row = f'[data-nc="alarm-row"][data-id="{alarm["id"]}"]'
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, row), what="the new alarm's row")
            self.assertIn("Wake up", W.fresh(lambda: W.css(row).text))
            if W.SHOTS:
                W.NODE.publish("alarm/add", json.dumps({"id": "shot-weekend", "time": "09:00", "repeat": "weekends",
                                                        "label": "Lie-in", "sound": "chime"}))
                W.NODE.publish("alarm/add", json.dumps({"id": "shot-nap", "time": "14:30", "label": "Nap",
                                                        "enabled": False}))
                W.wait_for(lambda: len(W.hooks("alarm-row")) >= 3, what="three rows")
                # The README's picture is of a node that has sound (the test node has none: no notice).
                W.DRIVER.execute_script("NC.put('audio', {device: 'default', status: 'ok', error: null})")
                W.DRIVER.execute_script("window.scrollTo(0, 0)")
                W.shot("alarms.png", 480, 800)
                W.NODE.publish("alarm/delete", "shot-weekend")
                W.NODE.publish("alarm/delete", "shot-nap")
            # A refusal is shown next to the control it names.
            W.DRIVER.execute_script("arguments[0].value = ''", time_input)
            form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
            error = W.wait_for(lambda: [e for e in form.find_elements(By.CSS_SELECTOR, '.error[data-for="time"]') if e.is_displayed()],
                               what="the refusal next to the time")
            self.assertTrue(error[0].text)
            # Delete through the row (confirm accepted).
            # (the list redraws on every ~/alarms: find the row afresh until the click lands)
            W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, f'[data-nc="alarm-row"][data-id="{alarm["id"]}"] .btn.danger').click() or True,
                       what="a click on Delete")
            W.DRIVER.switch_to.alert.accept()
            sub.json(lambda a: all(x["id"] != alarm["id"] for x in a), timeout=5, after=sub.count() - 1)
        finally:
            sub.stop()

    def test_the_rows_edit_enable_skip_and_test_an_alarm(self):
        W.NODE.publish("alarm/add", json.dumps({"id": "row", "time": "06:10", "repeat": "weekdays", "label": "Row"}))
        alarms = W.NODE.subscribe("alarms")
        state = W.NODE.subscribe("alarm")
        W.open_page("/alarms", 480, 800)
        selector = '[data-nc="alarm-row"][data-id="row"]'

        def click(element):
            # Below the sticky top bar, in the middle of the screen (the page scrolls to the form on Edit).
            W.DRIVER.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", element)
            element.click()
            return True

        def press(text):
            """Clicks the row's button with that text (the list redraws on each ~/alarms)."""
            def attempt():
                button = next(b for b in W.DRIVER.find_elements(By.CSS_SELECTOR, selector + " button") if b.text == text)
                return click(button)  # nothing after the click: the row may be redrawn at once
            return W.wait_for(attempt, what=f"a click on {text}")

        try:
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, selector), what="the row")
            # Edit: the form fills in, a new label and time are saved with alarm/update.
            press("Edit")
            form = W.hook("alarm-form")
            W.wait_for(lambda: form.find_element(By.NAME, "label").get_attribute("value") == "Row", what="the form filled in")
            self.assertEqual(form.find_element(By.NAME, "time").get_attribute("value"), "06:10")
            form.find_element(By.NAME, "label").clear()
            form.find_element(By.NAME, "label").send_keys("Row edited")
            W.DRIVER.execute_script("arguments[0].value = '06:20'", form.find_element(By.NAME, "time"))
            form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
            alarms.json(lambda a: any(x["id"] == "row" and x["label"] == "Row edited" and x["time"] == "06:20"
                                      and x["repeat"] == ["mon", "tue", "wed", "thu", "fri"] for x in a), timeout=5)
            # Saved says so on the row, brought into view, with the row's sound and fade (the trial saw the form
            # go back to "Add an alarm" with "Sound: Digital" and thought the change lost).
            W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, selector + ' [data-nc="alarm-saved"]'), what="Saved on the row")
            self.assertEqual(W.fresh(lambda: W.css(selector + ' [data-nc="alarm-saved"]').text), "Saved: 06:20, Weekdays")
            W.wait_for(lambda: W.DRIVER.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight",
                                                       W.css(selector)), what="the saved row in view")
            self.assertEqual(W.fresh(lambda: W.css(selector + ' [data-nc="alarm-sound"]').text), "Sound: Digital · Fade in: 30 s")
            # The switch disables and enables it.
            W.wait_for(lambda: click(W.DRIVER.find_element(By.CSS_SELECTOR, selector + " .switch")), what="the switch")
            alarms.json(lambda a: any(x["id"] == "row" and x["enabled"] is False for x in a), timeout=5)
            W.wait_for(lambda: click(W.DRIVER.find_element(By.CSS_SELECTOR, selector + " .switch")), what="the switch")
            alarms.json(lambda a: any(x["id"] == "row" and x["enabled"] is True and x["label"] == "Row edited" for x in a),
                        timeout=5, after=alarms.count() - 1)
            # Skip next, and undo it.
            press("Skip next")
            alarms.json(lambda a: any(x["id"] == "row" and x["skip_next"] is True for x in a), timeout=5)
            press("Don’t skip")
            alarms.json(lambda a: any(x["id"] == "row" and x["skip_next"] is False for x in a), timeout=5,
                        after=alarms.count() - 1)
            # Test rings it.
            press("Test")
            state.json(lambda a: a["state"] == "ringing" and a["alarm_id"] == "row", timeout=5)
        finally:
            W.NODE.publish("alarm/dismiss", "")
            state.json(lambda a: a["state"] == "idle", timeout=5, after=max(0, state.count() - 1))
            alarms.stop()
            state.stop()
            W.NODE.publish("alarm/delete", "row")

    def test_the_time_fields_follow_the_node_s_clock_style(self):
        """Chromium's time input shows AM/PM by the browser's locale (en-US here), whatever the page says:
        on a 24-hour node the alarm's and routines' times are plain HH:MM fields; on a 12-hour node the
        time input, with AM/PM. The value stays "HH:MM" through the change."""
        W.set_style(W.DEFAULT_STYLE)  # 24-hour
        try:
            for path, names in (("/alarms", ("time",)), ("/routines", ("start", "end"))):
                W.open_page(path, 480, 800)
                W.wait_for(lambda: W.DRIVER.execute_script("return !!NC.state.style"), what=f"{path}'s style")
                for name in names:
                    field = W.DRIVER.find_element(By.CSS_SELECTOR, f"input[name={name}]")
                    W.wait_for(lambda: field.get_attribute("type") == "text", what=f"{name}: a 24-hour field")
                    self.assertRegex(field.get_attribute("value"), r"^\d\d:\d\d$")
                    self.assertEqual(field.get_attribute("inputmode"), "numeric")
            W.open_page("/alarms", 480, 800)
            field = W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, "input[name=time]"), what="the time field")
            W.DRIVER.execute_script("arguments[0].value = '18:45'", field)
            W.set_style({"use_24_hour": False})
            W.wait_for(lambda: field.get_attribute("type") == "time", what="a 12-hour time input")
            self.assertEqual(field.get_attribute("value"), "18:45")
            W.set_style({"use_24_hour": True})
            W.wait_for(lambda: field.get_attribute("type") == "text", what="the 24-hour field again")
            self.assertEqual(field.get_attribute("value"), "18:45")
        finally:
            W.set_style(W.DEFAULT_STYLE)

    def test_pause_every_alarm_until_a_day_and_resume(self):
        W.open_page("/alarms", 480, 800)
        state = W.NODE.subscribe("alarm")
        try:
            W.wait_for(lambda: W.DRIVER.find_element(By.ID, "pause-card").is_displayed(), what="the pause card")
            day = time.strftime("%Y-%m-%d", time.gmtime(W.NODE.now() + 3 * 86400))
            W.DRIVER.execute_script("arguments[0].value = arguments[1]", W.DRIVER.find_element(By.ID, "pause-until"), day)
            W.DRIVER.find_element(By.ID, "pause").click()
            state.json(lambda a: a.get("paused_until") == day, timeout=5)
            W.wait_for(lambda: day in W.DRIVER.find_element(By.ID, "paused").text, what="the pause shown")
            W.DRIVER.find_element(By.ID, "resume").click()
            state.json(lambda a: a.get("paused_until") is None, timeout=5, after=state.count() - 1)
            W.wait_for(lambda: not W.DRIVER.find_element(By.ID, "resume").is_displayed(), what="Resume hiding")
        finally:
            state.stop()
            W.NODE.publish("alarms/resume", "")

    def test_alarm_test_shows_snooze_and_dismiss_and_dismiss_makes_it_idle(self):
        W.NODE.publish("alarm/add", json.dumps({"id": "ringer", "time": "05:00", "label": "Ring test"}))
        state = W.NODE.subscribe("alarm")
        try:
            W.open_page("/")
            W.wait_for(lambda: W.hook("alarm-state").get_attribute("data-state") == "idle", what="idle")
            self.assertFalse(W.hook("snooze").is_displayed())
            self.assertFalse(W.hook("dismiss").is_displayed())
            W.NODE.publish("alarm/test", "ringer")
            W.wait_for(lambda: W.hook("snooze").is_displayed() and W.hook("dismiss").is_displayed(), timeout=3,
                       what="Snooze and Dismiss")
            self.assertEqual(W.hook("alarm-state").get_attribute("data-state"), "ringing")
            # The test node has no sound device: the node's failsafe says the alarm is not heard, and so does the face.
            W.wait_for(lambda: W.DRIVER.find_element(By.ID, "ring-failed").is_displayed(), timeout=8, what="the not-heard warning")
            W.hook("snooze").click()
            state.json(lambda a: a["state"] == "snoozed", timeout=5)
            W.wait_for(lambda: W.hook("alarm-state").get_attribute("data-state") == "snoozed", what="snoozed on the face")
            self.assertTrue(W.hook("dismiss").is_displayed())
            W.hook("dismiss").click()
            state.json(lambda a: a["state"] == "idle", timeout=5, after=state.count() - 1)
            self.assertEqual(json.loads(W.NODE.retained("alarm"))["state"], "idle")
            W.wait_for(lambda: not W.hook("dismiss").is_displayed() and not W.hook("snooze").is_displayed(),
                       what="the buttons hiding")
        finally:
            state.stop()
            W.NODE.publish("alarm/delete", "ringer")
