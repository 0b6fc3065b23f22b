"""Buttons and voice (v1.2) in the web app, against test_web's node, whose button `top` reads a
FIFO as it would an input device (test_web.setUpModule makes it): this test writes real
`struct input_event` records into it, and closes it to unplug the "device". Also the say box,
the face's "Speak the time" and the alarm form's speak_time, each answered by a real node: test_web's
has no sound card, so it refuses to speak (audio_unavailable); a second node playing into ALSA's null
device speaks (eSpeak NG synthesizes the speech, and nothing hears it)."""
import os
import re
import struct
import subprocess
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W

EV_KEY, EV_SYN = 1, 0
KEY_VOLUMEUP = 115  # linux/input-event-codes.h


def record(type_, code, value):
    """One struct input_event as 64-bit Linux writes it: timeval (two longs), type, code, value."""
    return struct.pack("<qqHHi", 0, 0, type_, code, value)


def tap(code):
    return record(EV_KEY, code, 1) + record(EV_SYN, 0, 0) + record(EV_KEY, code, 0) + record(EV_SYN, 0, 0)


def on_a_speaker(name, test):
    """Runs test(node) signed in to a second node whose sound device opens (ALSA's null); then signs
    back in to test_web's node (the session cookie is the host's, whichever port)."""
    node = rig.Node(W.NODE.binary, os.path.join(W.TMP.name, name), W.BROKER.port, node_id=f"webtest_{name}", audio_device="null")
    node.start()
    try:
        W.DRIVER.get(f"{node.url}/?token={node.token}")
        W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="time"]'), what="the speaker's face after sign-in")
        test(node)
    finally:
        node.stop()
        W.sign_in()


def open_on(node, path, width=800, height=480):
    rig.set_viewport(W.DRIVER, width, height)
    W.DRIVER.get(node.url + path)
    W.wait_for(lambda: W.DRIVER.execute_script("return document.readyState") == "complete", what=f"{path} to load")


def button_row(button_id):
    return W.DRIVER.find_element(By.CSS_SELECTOR, f'[data-nc="button-row"][data-id="{button_id}"]')


def row_text(button_id):
    return W.fresh(lambda: button_row(button_id).text)


class J_ButtonsAndVoice(unittest.TestCase):
    def test_the_buttons_section_follows_the_buttons_and_learn_mode_names_a_key(self):
        W.open_page("/device", 390, 844)
        W.wait_for(lambda: "Connected" in row_text("top"), what="the FIFO button connected")
        top = row_text("top")
        self.assertIn("Local input", top)
        self.assertIn("Press: Snooze, or say the time · Double: Noise on/off · Hold: Dismiss", top)
        self.assertIn("MQTT", row_text("bedside"))
        # A command action shows with its payload: all it does.
        self.assertIn("Double: Noise volume 35 · Hold: Dismiss", row_text("bedside"))
        self.assertTrue(W.DRIVER.find_element(By.ID, "learn").is_displayed())
        self.assertEqual(W.DRIVER.find_element(By.ID, "battery").text, "82% · Charging")  # the facts above, drawn whole
        # A gesture of the MQTT button shows as the row's last one, live (hold: dismiss, nothing rings).
        self.assertNotIn("Last:", row_text("bedside"))
        mqtt_button = W.NODE.subscribe("button/event")
        try:
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(W.NODE.broker_port), "-q", "1",
                            "-t", "zigbee2mqtt/webtest_button", "-m", '{"action": "hold"}'], check=True)
            mqtt_button.json(lambda e: e.get("button") == "bedside" and e.get("gesture") == "hold")
        finally:
            mqtt_button.stop()
        W.wait_for(lambda: "Last: Hold" in row_text("bedside"), what="the hold on the MQTT button's row")
        W.DRIVER.execute_script("window.scrollTo(0, document.getElementById('buttons-title').offsetTop - 120)")
        W.shot("device-buttons.png", 390, 844)

        # Learn mode: "press your button now", and the key pressed on the device, by name.
        writer = os.open(W.NODE.fifo, os.O_WRONLY | os.O_NONBLOCK)  # the node holds it open for reading (else ENXIO)
        try:
            W.DRIVER.find_element(By.ID, "learn").click()
            view = W.wait_for(lambda: W.hook("learn-view").is_displayed() and W.hook("learn-view"), what="the learn view")
            self.assertIn("Press your button now", view.text)
            W.wait_for(lambda: re.search(r"\b(30|29|28) s left", view.text), what="the time left")
            self.assertIn("No key pressed yet.", view.text)
            os.write(writer, tap(KEY_VOLUMEUP))
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="learned-keys"] li[data-key="KEY_VOLUMEUP"]'),
                       what="KEY_VOLUMEUP in the learn view")
            self.assertIn("KEY_VOLUMEUP", W.hook("learned-keys").text)
            self.assertFalse(W.DRIVER.find_element(By.ID, "learn").is_enabled(), "Learn is disabled while it listens")
            # Unplugged: the FIFO's writer closes (and the path goes, so it is not found again at once).
            os.unlink(W.NODE.fifo)
        finally:
            os.close(writer)
        try:
            W.wait_for(lambda: "Missing" in row_text("top"), what="the button missing after unplugging")
            self.assertRegex(row_text("top"), r"Missing — (unplugged|No such file or directory)")
            self.assertEqual(button_row("top").get_attribute("data-status"), "missing")
        finally:
            os.mkfifo(W.NODE.fifo, 0o600)  # plugged in again for whatever runs next
        W.wait_for(lambda: "Connected" in row_text("top"), timeout=8, what="the button found again")

    def test_every_button_and_voice_string_has_a_korean_translation(self):
        W.open_page("/device", 390, 844)
        keys = ["buttons", "no_buttons", "src_input", "missing", "g_press", "g_double", "g_hold", "a_snooze_or_speak",
                "a_snooze", "a_dismiss", "a_speak_time", "a_speak_next_alarm", "a_noise_toggle", "a_volume_up",
                "a_volume_down", "a_light_toggle", "a_routine_toggle", "a_none", "a_timer", "a_command", "last_gesture",
                "learn", "press_now", "seconds_left", "learn_over", "no_keys", "say_title", "say_text", "say_volume",
                "say", "said", "speak_now", "speak_time", "says_time"]
        for key in keys:
            english, korean = W.translations(key)
            self.assertNotEqual(english, key)
            self.assertNotEqual(korean, english, key)
            self.assertRegex(korean, "[가-힣]", key)

    def test_the_say_box_shows_what_was_said_or_the_refusal(self):
        def say(text, volume):
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.audio)"), what="the device's state")
            box = W.DRIVER.find_element(By.ID, "say-text")
            box.clear()
            box.send_keys(text)
            field = W.DRIVER.find_element(By.ID, "say-volume")
            field.clear()
            field.send_keys(volume)
            W.DRIVER.find_element(By.ID, "say").click()

        def speaks(node):
            open_on(node, "/device", 390, 844)
            say("Good night", "40")
            result = W.wait_for(lambda: W.hook("say-result").text, timeout=8, what="the say box's answer")
            seconds = re.fullmatch(r"Said “Good night” \((\d+(?:\.\d+)?) s\)", result)
            self.assertIsNotNone(seconds, result)
            self.assertGreater(float(seconds.group(1)), 0.3)  # eSpeak NG's "Good night" at 160 words a minute
            self.assertLess(float(seconds.group(1)), 3)
            self.assertFalse(W.hook("say-error").is_displayed())
            # A volume out of range is refused, in the node's words, in place of the last answer.
            say("Good night", "140")
            error = W.wait_for(lambda: W.hook("say-error").is_displayed() and W.hook("say-error").text, what="the refusal")
            self.assertIn("volume", error)
            self.assertEqual(W.hook("say-result").text, "")
        on_a_speaker("speaker_say", speaks)

        # Without a sound card the words could not be heard: the node refuses, and the box says why.
        W.open_page("/device", 390, 844)
        say("Good night", "40")
        error = W.wait_for(lambda: W.hook("say-error").is_displayed() and W.hook("say-error").text, timeout=8,
                           what="the refusal without sound")
        self.assertIn("the words cannot be heard", error)
        self.assertEqual(W.hook("say-result").text, "")

    def test_speak_the_time_on_the_face_says_the_face_s_time(self):
        W.set_style(W.DEFAULT_STYLE)

        def speaks(node):
            open_on(node, "/")
            W.wait_for(lambda: re.fullmatch(r"\d\d:\d\d", W.face_text() or ""), what="the face")
            speak = W.hook("speak-time")
            self.assertEqual(speak.get_attribute("aria-label"), "Speak the time")
            before = W.face_text()
            W.DRIVER.find_element(By.TAG_NAME, "body").send_keys("x")  # any key wakes the face: its chips show
            W.wait_for(lambda: float(W.DRIVER.find_element(By.ID, "chrome").value_of_css_property("opacity")) > 0.5,
                       what="the chips showing")
            speak.click()
            spoken = W.wait_for(lambda: W.hook("spoken").is_displayed() and W.hook("spoken").text, timeout=8, what="what was said")
            after = W.face_text()
            said = re.fullmatch(r"It's (\d+):(\d\d), (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)", spoken)
            self.assertIsNotNone(said, spoken)
            self.assertIn(f"{int(said.group(1)):02d}:{said.group(2)}", (before, after))
            self.assertEqual(W.hook("spoken").get_attribute("data-ok"), "true")
        on_a_speaker("speaker_face", speaks)

    def test_the_alarm_form_s_speak_time_reaches_the_alarms(self):
        W.open_page("/alarms", 480, 800)
        sub = W.NODE.subscribe("alarms")
        alarm = None
        try:
            form = W.wait_for(lambda: W.hook("alarm-form"), what="the alarm form")
            label = form.find_element(By.NAME, "label")
            label.clear()
            label.send_keys("Spoken")
            form.find_element(By.TAG_NAME, "summary").click()
            switch = form.find_element(By.NAME, "speak_time")
            self.assertFalse(switch.is_selected())
            switch.click()
            submit = form.find_element(By.CSS_SELECTOR, "[type=submit]")
            submit.click()  # disabled until the node's answer is in, when the form empties itself
            _, alarms = sub.json(lambda a: any(x["label"] == "Spoken" for x in a), timeout=5)
            # ~/alarms can come before the POST's answer; an Edit before that answer would be
            # undone by the add's own clearing of the form.
            W.wait_for(lambda: submit.is_enabled() and not form.find_element(By.NAME, "label").get_attribute("value"),
                       what="the add answered and the form cleared")
            alarm = next(x for x in alarms if x["label"] == "Spoken")
            self.assertIs(alarm["speak_time"], True)
            row = f'[data-nc="alarm-row"][data-id="{alarm["id"]}"]'
            W.wait_for(lambda: "says the time" in W.fresh(lambda: W.css(row).text), what="the row saying so")
            # Editing it shows the switch on; turning it off reaches ~/alarms too.
            def edit():
                button = W.css(row + " .tools .btn")
                W.DRIVER.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                return button.click() or True
            W.wait_for(edit, what="a click on Edit")
            W.wait_for(lambda: form.find_element(By.NAME, "speak_time").is_selected(), what="the switch on in the edit form")
            form.find_element(By.NAME, "speak_time").click()
            form.find_element(By.CSS_SELECTOR, "[type=submit]").click()
            sub.json(lambda a: any(x["id"] == alarm["id"] and x["speak_time"] is False for x in a), timeout=5)
        finally:
            sub.stop()
            if alarm:
                W.NODE.publish("alarm/delete", alarm["id"])
