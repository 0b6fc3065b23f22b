"""The settings page's helpers (v1.3, issue 30): a row, a field, Save, a Details opened, a choice, an
edit, settings.json read back, a WAV written. The tests are test_settings_page.py (the page: values, sources,
refusals, the locked keys, backup and restore), test_sound_settings.py (the Sound section) and
test_first_start.py (the face's first start), run by test_web as its own (the rig, the node and the browser are
test_web's, read at call time)."""
import json
import os
import re

from selenium.webdriver.common.by import By

import test_web as W
from test_programmes import click


def row(key):
    return W.css(f'[data-nc="setting"][data-key="{key}"]')


def read(path):
    """A file's text, or None when there is none."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read()


def settings():
    status, body = W.api("/api/settings")
    assert status == 200, body
    return json.loads(body)


def open_settings():
    W.open_page("/settings", 800, 900)
    W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="setting"][data-key="timezone"]'),
               what="the settings page's rows")


def field_of(key):
    return W.fresh(lambda: row(key).find_element(By.ID, "s-" + re.sub("[^a-z0-9]", "-", key, flags=re.I)))


def save(key):
    """Presses the Save of key's section (one per section, v1.4)."""
    click(W.fresh(lambda: row(key).find_element(By.XPATH, "ancestor::form[1]").find_element(By.CSS_SELECTOR, '[data-nc="section-save"]')))


def reveal(key):
    """Opens the section's "More options" that holds key, if it does."""
    W.DRIVER.execute_script("const d = arguments[0].closest('details'); if (d) d.open = true", row(key))


def choose(key, value):
    """Picks value in key's list (added as an option when the list has none: a value the node refuses)."""
    reveal(key)
    W.DRIVER.execute_script("""const s = arguments[0];
      if (![...s.options].some((o) => o.value === arguments[1])) s.append(new Option(arguments[1], arguments[1]));
      s.value = arguments[1]; s.dispatchEvent(new Event('change'));""", field_of(key), value)


def edit(key, text):
    """Types text into key's field (or picks it in its list) and saves its section."""
    reveal(key)
    field = field_of(key)
    if field.tag_name == "select":
        choose(key, text)
    else:
        field.clear()
        field.send_keys(text)
    save(key)


def inner(element):
    """An element's whole text, a closed Details' too."""
    return W.DRIVER.execute_script("return arguments[0].textContent", element)


def write_wav(path, seconds=0.5):
    """A 440 Hz mono 16-bit WAV at 48 kHz, written beside and renamed in (one event for the watcher)."""
    import math
    import struct
    import wave
    staging = path + ".part"
    with wave.open(staging, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(48000)
        f.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / 48000)))
                               for i in range(int(48000 * seconds))))
    os.rename(staging, path)
