"""The web app in a real headless Chromium, against the real node and a real mosquitto.

One broker, one node and one browser serve the whole run (setUpModule); each test leaves the
node as it found it where that matters (style back to the defaults). The node's clock is the
test clock (NOISECLOCK_TEST_CLOCK_FILE), so a minute boundary is minutes away at most 3 s.
With SCREENSHOT_DIR set, the tests that draw the face and the alarm page save PNGs there."""
import os
import tempfile
import time
import unittest

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

import rig

NODE = None
BROKER = None
DRIVER = None
TMP = None
SHOTS = os.environ.get("SCREENSHOT_DIR")
MEASURED = {}
DEFAULT_STYLE = {"use_24_hour": True, "show_seconds": False, "show_ampm": True, "digit_color": "#FFFFFF",
                 "background_color": "#000000", "glow": 50, "auto_fit": True, "scale": 100, "digit_opacity": 100,
                 "overlay_opacity": 50, "random_color": False, "font_family": "system", "font_weight": "regular",
                 "font_design": "default", "show_battery": True, "show_date": True, "keep_awake": False,
                 "face_light": True}

BUTTONS_YAML = """buttons:
  - id: top
    input: {{device: {fifo}, key: KEY_ENTER}}
  - id: bedside
    mqtt: {{topic: zigbee2mqtt/webtest_button, field: action}}
    double: {{command: noise/volume/set, payload: "35"}}
"""


def setUpModule():
    global NODE, BROKER, DRIVER, TMP
    binary = os.environ["NOISECLOCK_BIN"]
    TMP = tempfile.TemporaryDirectory(prefix="noiseclock-browser-")
    BROKER = rig.Broker(TMP.name)
    # Two buttons (v1.2): one read from a FIFO as from an input device (test_buttons.py writes
    # struct input_event records into it), one reported over MQTT the way Zigbee2MQTT does.
    fifo = os.path.join(TMP.name, "event0")
    os.mkfifo(fifo, 0o600)
    NODE = rig.Node(binary, TMP.name, BROKER.port, yaml_extra=BUTTONS_YAML.format(fifo=fifo))
    NODE.fifo = fifo
    # A battery the face can show (a fake sysfs tree, read like the real one).
    battery = os.path.join(TMP.name, "power_supply", "BAT0")
    os.makedirs(battery)
    for name, value in (("type", "Battery"), ("capacity", "82"), ("status", "Charging")):
        with open(os.path.join(battery, name), "w") as f:
            f.write(value + "\n")
    # Sound devices the settings page can pick and read back (test_sound_settings.py): the node plays on
    # none until a test saves one as audio.device.
    NODE.capture = rig.CapturePCMs(TMP.name, {"nc_chime": "NoiseClock test speaker", "nc_try": "NoiseClock test headphones"})
    NODE.environment.update(NODE.capture.environment)
    # A node set up already (its settings.json says the wizard was finished): the first start's
    # "Set up this clock" and /setup are test_first_start.py's and test_setup.py's own tests; every
    # other test sees the pages without them.
    os.makedirs(NODE.state_dir)
    with open(os.path.join(NODE.state_dir, "settings.json"), "w") as f:
        f.write('{"version": 1, "values": {}, "setup_done": true}\n')
    NODE.start()
    DRIVER = rig.browser()
    sign_in()


def tearDownModule():
    for stop in (lambda: DRIVER.quit(), lambda: NODE.stop(), lambda: BROKER.stop(), lambda: TMP.cleanup()):
        try:
            stop()
        except Exception:
            pass


def sign_in():
    DRIVER.get(f"{NODE.url}/?token={NODE.token}")
    wait_for(lambda: DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="time"]'), what="the face after sign-in")


def wait_for(condition, timeout=5.0, what="the condition"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # stale elements while the page redraws
            last = error
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {timeout} s (last: {last!r})")


def fresh(read, timeout=5.0, what="reading the page"):
    """read()'s value, whatever it is (for the test to assert on). read finds its elements itself,
    so when the page redraws one under it (a list redraws on every retained topic: the element
    found goes stale) it runs again and finds the new one. Unlike wait_for, a value that is not
    what the test expects is returned, not waited out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return read()
        except StaleElementReferenceException as error:
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: the page kept redrawing it for {timeout} s") from error
            time.sleep(0.02)


# Reading and driving the page (web_page.py): here, so the test files call them as W.css, W.open_page...
from web_page import (STREAM_COUNTER, api, colour_of, css, face_text, hook, hooks, next_boundary_clock,  # noqa: E402,F401
                      open_page, open_page_streamed, rgb, serve_page, set_style, settled, shot, translations)

# The web app's first classes, run here with this module's node and browser: access and the token
# (test_web_access.py), the face (test_web_face.py), alarms (test_web_alarms.py), the pages on a phone
# (test_web_pages.py), Korean (test_web_korean.py), a node restart (test_web_restart.py).
from test_web_access import A_Access  # noqa: E402
from test_web_face import B_Face  # noqa: E402
from test_web_alarms import C_Alarms  # noqa: E402
from test_web_pages import D_Settings  # noqa: E402
from test_web_korean import E_Korean  # noqa: E402
from test_web_restart import F_Restart  # noqa: E402
for _suite in (A_Access, B_Face, C_Alarms, D_Settings, E_Korean, F_Restart):
    _suite.__module__ = __name__
# The sleep programmes' pages (v1.1), run here with this module's node and browser.
from test_programmes import G_Programmes  # noqa: E402
G_Programmes.__module__ = __name__
# The bedroom (v1.2): an OK-to-wake pair on the face (test_bedroom.py).
from test_bedroom import I_Bedroom  # noqa: E402
I_Bedroom.__module__ = __name__
# Every page under axe-core and the Content-Security-Policy (test_accessibility.py).
from test_accessibility import H_Accessibility  # noqa: E402
H_Accessibility.__module__ = __name__
# Buttons and voice (v1.2): the device page's buttons and say box, the face's Speak (test_buttons.py).
from test_buttons import J_ButtonsAndVoice  # noqa: E402
J_ButtonsAndVoice.__module__ = __name__
# The face's layout on small screens: nothing over the date, the next alarm, Snooze and Dismiss (test_face_layout.py).
from test_face_layout import K_FaceLayout  # noqa: E402
K_FaceLayout.__module__ = __name__


if __name__ == "__main__":
    unittest.main()
# The settings page (v1.3): values, sources, refusals, the locked keys, backup and restore (test_settings_page.py).
from test_settings_page import L_SettingsPage  # noqa: E402
L_SettingsPage.__module__ = __name__
# The Sound section (device list, live device, test chime: test_sound_settings.py) and the face's first start
# (test_first_start.py).
from test_sound_settings import M_SoundSettings  # noqa: E402
from test_first_start import N_FirstStart  # noqa: E402
M_SoundSettings.__module__ = __name__
N_FirstStart.__module__ = __name__
# No lock-out (v1.3): the broker and the web address changed from the page, rolled back unless they work (test_settings_lockout.py).
from test_settings_lockout import M_SettingsLockout  # noqa: E402
M_SettingsLockout.__module__ = __name__
# Safe mode (v1.4): a node of its own crashes at its first two starts; the face says so (test_safe_mode.py).
from test_safe_mode import P_SafeMode  # noqa: E402
P_SafeMode.__module__ = __name__
# Radio (v1.3): the radio page, the stations in the pickers, now playing on the face (test_radio.py).
from test_radio import O_Radio  # noqa: E402
O_Radio.__module__ = __name__
# The station directory on the radio page (v1.4): found by name, added, tested, made an alarm's sound.
from test_radio_directory import Q_RadioDirectory  # noqa: E402
Q_RadioDirectory.__module__ = __name__
# The first-start wizard (v1.4): fresh nodes of their own set up end to end at a phone's and a tablet's size (test_setup.py).
# The alarm form as a phone's clock app: presets, the gentle fade, a twin asks first (test_setup.py).
from test_setup import Q_SetupWizard, R_AlarmFormLikeAPhone  # noqa: E402
Q_SetupWizard.__module__ = __name__
R_AlarmFormLikeAPhone.__module__ = __name__
# Settings in a person's words (v1.4): the string tables, no raw key as a label, a short page, one Save per
# section, Restart now; the Korean settings page without English (test_settings_words.py).
from test_settings_words import T_SettingsKorean, T_SettingsWords  # noqa: E402
T_SettingsWords.__module__ = __name__
T_SettingsKorean.__module__ = __name__
# The rest of a person's app (v1.4, issue 41 item 6): every page in Korean, messages in a person's words with
# their detail behind "Details", the face's readiness pill (why, Fix it, AA contrast, the noise), 44 px targets.
from test_persons_words import U_KoreanPages, V_MessagesInWords, W_FacePill, X_TapTargets  # noqa: E402
for _suite in (U_KoreanPages, V_MessagesInWords, W_FacePill, X_TapTargets):
    _suite.__module__ = __name__
# The node's own replies on a Korean page (v1.4, issue 41 item 6): a refusal, a station test, a broker test in
# Korean words, the node's English message behind "Details" (test_node_replies.py).
from test_node_replies import Y_NodeRepliesInKorean  # noqa: E402
Y_NodeRepliesInKorean.__module__ = __name__
# What confused a person in the new-user trial (issue 41): the wizard's silent speaker and its first alarm's
# time, the radio page's "Wake to this" and the alarm rows' sound and fade (test_trial.py).
from test_trial import S_NewUserTrial  # noqa: E402
S_NewUserTrial.__module__ = __name__
