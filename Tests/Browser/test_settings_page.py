"""The settings page (v1.3, issue 30): values, sources, refusals, the locked keys, backup and restore, in the
same browser against the same node as test_web (which runs this as its own: the rig, the node and the browser are
test_web's, read at call time). The node's log_level comes from NOISECLOCK_LOG_LEVEL (rig.Node), so that key is the
environment-locked one."""
import errno
import json
import os
import subprocess
import tempfile
import threading
import time
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W
from test_programmes import click
from test_buttons import KEY_VOLUMEUP, tap
from test_settings import choose, edit, field_of, inner, open_settings, read, reveal, row, save, settings


class L_SettingsPage(unittest.TestCase):
    def test_a_a_time_zone_set_on_the_page_moves_the_nodes_time_and_goes_back_to_the_files(self):
        time_topic = W.NODE.subscribe("time")
        started = time.monotonic()
        try:
            open_settings()
            self.assertEqual(W.fresh(lambda: row("timezone").get_attribute("data-source")), "file")
            edit("timezone", "Asia/Seoul")
            time_topic.json(lambda t: t["iso"].endswith("+09:00"), timeout=3)
            took = time.monotonic() - started
            W.wait_for(lambda: row("timezone").get_attribute("data-source") == "web", what="the source 'here'")
            self.assertEqual(W.fresh(lambda: row("timezone").find_element(By.CSS_SELECTOR, '[data-nc="setting-source"]').text), "set here")
            # Applies now: no "after a restart" on it.
            self.assertEqual(W.fresh(lambda: row("timezone").find_elements(By.CSS_SELECTOR, '[data-nc="setting-applies"]')), [])
            self.assertEqual((settings()["values"]["timezone"], settings()["sources"]["timezone"]), ("Asia/Seoul", "web"))
            # Back to the file's value: UTC again, from the file.
            after = time_topic.count()
            click(row("timezone").find_element(By.CSS_SELECTOR, '[data-nc="setting-reset"]'))
            time_topic.json(lambda t: t["iso"].endswith("+00:00"), timeout=3, after=after)
            W.wait_for(lambda: row("timezone").get_attribute("data-source") == "file", what="the source 'file' again")
            self.assertEqual(W.fresh(lambda: field_of("timezone").get_attribute("value")), "UTC")
            W.MEASURED["settings page: time zone to ~/time"] = f"{took:.2f} s from opening the page"
        finally:
            time_topic.stop()
            W.api("/api/settings/reset", json.dumps({"keys": ["timezone"]}).encode())

    def test_b_a_bad_value_is_refused_next_to_its_field_and_changes_nothing(self):
        before = settings()
        stored = os.path.join(W.NODE.state_dir, "settings.json")
        had = read(stored)
        open_settings()
        # Two keys of one section in one Save: the bad one refused under its field, the good one not saved either.
        reveal("node_id")
        field_of("node_id").clear()
        field_of("node_id").send_keys("all")
        choose("mqtt.protocol", "3.1.1")
        save("mqtt.port")
        error = W.wait_for(lambda: (lambda e: e if e.is_displayed() and e.text else None)(
            row("node_id").find_element(By.CSS_SELECTOR, '[data-nc="setting-error"]')), what="the refusal under node_id")
        self.assertTrue(error.text.startswith("Not saved: Clock name cannot be that. Nothing changed."), error.text)
        self.assertIn("node_id:", inner(error))
        # Only that field says so; the node's settings and settings.json are as they were.
        shown = [e for e in W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="setting-error"]') if e.is_displayed()]
        self.assertEqual(len(shown), 1)
        self.assertEqual(settings(), before)
        self.assertEqual(read(stored), had)
        self.assertEqual(row("node_id").get_attribute("data-source"), "file")

    def test_c_every_key_is_shown_and_an_environment_key_is_locked(self):
        answer = settings()
        open_settings()
        keys = [e.get_attribute("data-key") for e in W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="setting"]')]
        self.assertEqual(sorted(keys), sorted(answer["values"]))
        self.assertEqual(answer["sources"]["log_level"], "environment")
        locked = row("log_level")
        self.assertEqual(locked.get_attribute("data-source"), "environment")
        self.assertIn("Fixed on the machine", inner(locked.find_element(By.CSS_SELECTOR, '[data-nc="setting-locked"]')))
        self.assertFalse(locked.find_element(By.ID, "s-log-level").is_enabled())
        self.assertEqual(locked.find_elements(By.CSS_SELECTOR, "button"), [])
        # Labels in a person's words; the key only as a hint.
        self.assertEqual(W.fresh(lambda: row("audio.device").find_element(By.CSS_SELECTOR, ".name").text), "Speaker")
        # A key only the file may set says why, and cannot be edited either.
        fixed = row("state_dir")
        self.assertFalse(fixed.find_element(By.TAG_NAME, "input").is_enabled())
        self.assertIn("settings.json itself lives there", inner(fixed))
        # The broker's password is write-only: a password field, never filled, saying "not set".
        secret = row("mqtt.password")
        field = secret.find_element(By.ID, "s-mqtt-password")
        self.assertEqual((field.get_attribute("type"), field.get_attribute("value")), ("password", ""))
        self.assertIn("No password set.", inner(secret))
        # The sections the issue lists, in its order.
        titles = [h.text for h in W.DRIVER.find_elements(By.CSS_SELECTOR, "#sections h2")]
        self.assertEqual(titles, ["SOUND", "TIME AND LANGUAGE", "HOME AUTOMATION", "LAMP AND BED SHAKER", "BUTTONS", "RADIO", "THIS WEB APP",
                                  "THE MACHINE"])
        W.shot("settings.png", 390, 844)

    def test_d_a_downloaded_backup_restores_and_a_corrupted_one_changes_nothing(self):
        folder = tempfile.mkdtemp(prefix="settings-backup-", dir=W.TMP.name)
        W.DRIVER.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
        open_settings()
        click(W.hook("backup"))
        # The node names the file (Content-Disposition): noiseclock-backup-<node id>.json.
        path = os.path.join(folder, f"noiseclock-backup-{W.NODE.node_id}.json")
        W.wait_for(lambda: os.path.exists(path) and not any(n.endswith(".crdownload") for n in os.listdir(folder)),
                   what=f"the downloaded backup in {folder}")
        with open(path) as f:
            backup = json.load(f)
        self.assertEqual((backup["format"], backup["node_id"]), ("noiseclock-backup", W.NODE.node_id))
        # One bad alarm: refused, naming the entry; the node's alarms are as they were.
        alarms_before = json.loads(W.api("/api/state")[1])["alarms"]
        broken = dict(backup, alarms=[{"id": "bad", "time": "25:00"}])
        bad_path = os.path.join(folder, "broken.json")
        with open(bad_path, "w") as f:
            json.dump(broken, f)
        W.hook("restore-form").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(bad_path)
        click(W.hook("restore"))
        error = W.wait_for(lambda: (lambda e: e if e.is_displayed() and e.text else None)(W.hook("restore-error")),
                           what="the restore's refusal")
        self.assertIn("alarms[0].time", inner(error))
        self.assertEqual(json.loads(W.api("/api/state")[1])["alarms"], alarms_before)
        # The downloaded one restores.
        W.hook("restore-form").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(path)
        click(W.hook("restore"))
        W.wait_for(lambda: W.hook("restore-result").text.startswith(f"Restored from {W.NODE.node_id}"), what="the restore's answer")
        self.assertFalse(W.hook("restore-error").is_displayed())
        self.assertEqual([a["id"] for a in json.loads(W.api("/api/state")[1])["alarms"]], [a["id"] for a in alarms_before])

    def test_e_the_faces_settings_chip_and_every_menu_lead_here(self):
        W.open_page("/alarms")
        self.assertIn("/settings", [a.get_attribute("pathname") for a in W.DRIVER.find_elements(By.CSS_SELECTOR, ".topbar a")])
        W.open_page("/")
        self.assertEqual(W.css('a.chip[href="/settings"]').get_attribute("pathname"), "/settings")

    def test_f_the_locale_chosen_on_the_page_turns_it_korean_at_once(self):
        try:
            open_settings()
            edit("locale", "ko")
            W.wait_for(lambda: W.DRIVER.execute_script("return document.documentElement.lang") == "ko", what="the page in Korean")
            W.wait_for(lambda: W.css("main h1").text == "설정", what="the title in Korean")
            titles = W.fresh(lambda: [h.text for h in W.DRIVER.find_elements(By.CSS_SELECTOR, "#sections h2")][:2])
            self.assertEqual(titles, ["소리", "시간과 언어"])
            self.assertEqual(W.fresh(lambda: row("locale").find_element(By.CSS_SELECTOR, '[data-nc="setting-source"]').text), "여기서 바꿈")
            click(row("locale").find_element(By.CSS_SELECTOR, '[data-nc="setting-reset"]'))
            W.wait_for(lambda: W.DRIVER.execute_script("return document.documentElement.lang") == "en", what="the page in English again")
        finally:
            W.api("/api/settings/reset", json.dumps({"keys": ["locale"]}).encode())

    def test_g_the_24_hour_switch_sets_the_clock_style(self):
        style = W.NODE.subscribe("style")
        try:
            open_settings()
            switch = W.fresh(lambda: W.hook("clock-24h").find_element(By.CSS_SELECTOR, "input[role=switch]"))
            self.assertTrue(switch.is_selected())
            click(W.hook("clock-24h").find_element(By.CSS_SELECTOR, "label.switch"))
            style.json(lambda s: s["use_24_hour"] is False, timeout=3)
            click(W.hook("clock-24h").find_element(By.CSS_SELECTOR, "label.switch"))
            style.json(lambda s: s["use_24_hour"] is True, timeout=3)
        finally:
            style.stop()
            W.set_style({"use_24_hour": True})

    def test_h_the_lamps_test_shows_the_devices_word_and_a_lamp_moved_here_is_bound_at_once(self):
        """The lamp is a test client answering as Zigbee2MQTT documents a state query: `<topic>/get` is
        answered with the state on `<topic>`."""
        topic = "zigbee2mqtt/settings_lamp"

        asked = rig.Subscription(W.NODE.broker_port, topic + "/get")  # subscribed when it returns

        def lamp():
            try:
                asked.wait(timeout=8)
            except AssertionError:
                return  # never asked: the page's wait below says so
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(W.NODE.broker_port), "-q", "1", "-t", topic,
                            "-m", '{"state":"OFF","brightness":0}'], check=True)
        try:
            open_settings()
            started = time.monotonic()
            edit("devices.light.topic", topic)
            W.wait_for(lambda: row("devices.light.topic").get_attribute("data-source") == "web", what="the lamp's topic saved")
            self.assertEqual(W.fresh(lambda: row("devices.light.topic").find_elements(By.CSS_SELECTOR, '[data-nc="setting-applies"]')), [])
            answering = threading.Thread(target=lamp)
            answering.start()
            click(W.css('[data-nc="device-test"][data-kind="light"]'))
            result = W.wait_for(lambda: (lambda e: e if e.get_attribute("data-status") else None)(
                W.css('[data-nc="device-test-result"][data-kind="light"]')), timeout=8, what="the lamp's answer")
            answering.join()
            self.assertEqual(result.get_attribute("data-status"), "confirmed")
            self.assertRegex(result.text, r"^Answered: OFF \(\d+ ms\)\.$")
            W.MEASURED["settings page: lamp bound and tested"] = f"{time.monotonic() - started:.2f} s from Save to its answer shown"
        finally:
            asked.stop()
            W.api("/api/settings/reset", json.dumps({"keys": ["devices.light.topic"]}).encode())

    def test_i_a_fifo_button_bound_here_by_learning_its_key_snoozes_the_ringing_alarm(self):
        fifo = os.path.join(W.TMP.name, "event-learned")
        os.mkfifo(fifo, 0o600)
        buttons = W.NODE.subscribe("buttons")
        alarm = W.NODE.subscribe("alarm")

        def plug():
            """A writer on the FIFO once the node reads it (before that, opening it says ENXIO)."""
            def opened():
                try:
                    return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError as error:
                    if error.errno != errno.ENXIO:
                        raise
                    return None
            return W.wait_for(opened, what="the node reading the FIFO")
        try:
            open_settings()
            reveal("buttons")
            click(W.hook("binding-add"))
            new = W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="binding"]')[-1], what="the new binding")
            self.assertEqual(new.find_element(By.CSS_SELECTOR, '[data-nc="binding-id"]').get_attribute("value"), "button3")
            device = new.find_element(By.CSS_SELECTOR, '[data-nc="binding-device"]')
            device.clear()
            device.send_keys(fifo)
            click(new.find_element(By.CSS_SELECTOR, '[data-nc="binding-learn"]'))
            key = new.find_element(By.CSS_SELECTOR, '[data-nc="binding-key"]')
            W.wait_for(lambda: key.get_attribute("placeholder") == "Press your button now", what="the learn prompt")
            writer = plug()
            try:
                os.write(writer, tap(KEY_VOLUMEUP))
                W.wait_for(lambda: key.get_attribute("value") == "KEY_VOLUMEUP", what="the key learned")
            finally:
                os.close(writer)
            # Snooze on a press: the menu of its actions.
            press = new.find_element(By.CSS_SELECTOR, 'select[data-gesture="press"]')
            W.DRIVER.execute_script("arguments[0].value = 'snooze'; arguments[0].dispatchEvent(new Event('change'))", press)
            after = buttons.count()
            saved = time.monotonic()
            click(W.hook("bindings-save"))
            _, listed = buttons.json(lambda b: any(x["id"] == "button3" and x["status"] == "connected" for x in b), after=after)
            took = time.monotonic() - saved
            self.assertEqual([b["id"] for b in listed], ["top", "bedside", "button3"])
            self.assertEqual(next(b for b in listed if b["id"] == "button3")["press"], "snooze")
            W.MEASURED["settings page: a button bound to ~/buttons connected"] = f"{took:.2f} s from Save"
            # It snoozes a ringing alarm.
            W.api("/api/alarm/add", json.dumps({"id": "learned", "time": "05:00"}).encode())
            after = alarm.count()
            W.api("/api/alarm/test", json.dumps({"id": "learned"}).encode())
            alarm.json(lambda a: a["state"] == "ringing", after=after)
            writer = plug()
            try:
                os.write(writer, tap(KEY_VOLUMEUP))
                alarm.json(lambda a: a["state"] == "snoozed" and a["alarm_id"] == "learned", after=after)
            finally:
                os.close(writer)
        finally:
            buttons.stop()
            alarm.stop()
            W.api("/api/alarm/dismiss", b"{}")
            W.api("/api/alarm/delete", json.dumps({"id": "learned"}).encode())
            W.api("/api/settings/reset", json.dumps({"keys": ["buttons"]}).encode())
