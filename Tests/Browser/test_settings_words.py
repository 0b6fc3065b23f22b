"""Settings in a person's words (http-api v1.4, issue 41 item 2), in test_web's Chromium against its
node (read at call time): every key the node lists has a label and a help in English and Korean
(the string tables, read in the page); no key's raw name is a label on any page; the page at a
phone's size (390×844) is short, one Save per section, axe-clean in both languages; a key that
applies at the next start is applied by the banner's "Restart now"."""
import json
import time
import unittest

from selenium.webdriver.common.by import By

import test_web as W
from test_programmes import click
from test_settings_lockout import axe_problems

PAGES = ("/", "/alarms", "/noise", "/radio", "/style", "/device", "/routines", "/timers", "/settings")
# Latin-letter words on a Korean page that are names, not words of the app's: products, units,
# the tests' own data (node id, speakers, buttons, zones) and values a person typed.
NAMES = {"NoiseClock", "Home", "Assistant", "Zigbee2MQTT", "Tasmota", "MQTT", "TLS", "Hz", "ms", "English", "UTC", "webtest",
         "null_noiseclock_test", "NoiseClock", "test", "speaker", "headphones", "top", "bedside", "Asia", "Seoul", "Europe",
         "Berlin", "AM", "PM", "dB", "kbps"}
# Words of the page's own text (hints in <code>, values in fields and user data marked data-user left out).
ENGLISH_WORDS = """
  const words = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, parent = node.parentElement;
    if (!parent || parent.closest('code, script, style, textarea, [data-user], option:not(:checked), details:not([open]) > :not(summary)')) continue;
    const box = parent.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    words.push(...(node.textContent.match(/[A-Za-z][A-Za-z0-9_]*[A-Za-z]/g) || []));
  }
  for (const e of document.querySelectorAll('input[placeholder], [aria-label], button[title]')) {
    if (!e.getClientRects().length) continue;
    words.push(...((e.getAttribute('placeholder') || '') + ' ' + (e.getAttribute('aria-label') || '')).match(/[A-Za-z][A-Za-z0-9_]*[A-Za-z]/g) || []);
  }
  return words;"""


def english_words(names=NAMES):
    return [word for word in W.DRIVER.execute_script(ENGLISH_WORDS) if word not in names]


def settings():
    return json.loads(W.api("/api/settings")[1])


def open_phone(path="/settings"):
    W.open_page(path, 390, 844)
    if path == "/settings":
        W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="setting"][data-key="timezone"]'),
                   what="the settings page's rows")


def page_height():
    return W.DRIVER.execute_script("return document.scrollingElement.scrollHeight")


def in_korean(test):
    W.api("/api/settings", json.dumps({"locale": "ko"}).encode())
    test.addCleanup(lambda: W.api("/api/settings/reset", json.dumps({"keys": ["locale"]}).encode()))


class T_SettingsWords(unittest.TestCase):
    def test_a_every_key_the_node_lists_has_english_and_korean_words(self):
        keys = list(settings()["values"])
        self.assertGreater(len(keys), 40)
        open_phone()
        tables = W.DRIVER.execute_script("return SettingsKeyWords")
        missing = []
        for key in keys:
            for language in ("en", "ko"):
                words = (tables.get(key) or {}).get(language) or []
                if len(words) != 2 or not all(w.strip() for w in words):
                    missing.append(f"{key} ({language})")
                elif language == "ko" and not any("\uac00" <= c <= "\ud7a3" for c in words[0] + words[1]):
                    missing.append(f"{key} (ko is not Korean: {words})")
        self.assertEqual(missing, [], "keys without a label and a help in both languages")

    def test_b_no_raw_key_is_a_label_on_any_page(self):
        keys = set(settings()["values"])
        found = []
        for language in ("en", "ko"):
            if language == "ko":
                in_korean(self)
            for path in PAGES:
                open_phone(path)
                W.wait_for(lambda: W.DRIVER.execute_script("return typeof NC !== 'undefined' && !!NC.state.node"), what=f"{path}'s state")
                labels = W.DRIVER.execute_script("""
                  return [...document.querySelectorAll('label, legend, h1, h2, h3, th, summary, .name, button')]
                    .filter((e) => e.getClientRects().length).map((e) => e.innerText.trim());""")
                found += [f"{path} ({language}): {text}" for text in labels if text in keys]
        self.assertEqual(found, [])

    def test_c_the_page_is_short_on_a_phone_with_one_save_per_section_and_axe_clean(self):
        heights = {}
        for language in ("en", "ko"):
            if language == "ko":
                in_korean(self)
            open_phone()
            if language == "ko":
                W.wait_for(lambda: W.css("main h1").text == "설정", what="the page in Korean")
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="audio-status"]'), what="the sound part")
            heights[language] = page_height()
            sections = W.hooks("settings-section")
            saves = W.hooks("section-save")
            self.assertGreaterEqual(len(sections), 7)
            self.assertLessEqual(len(saves), len(sections), "one Save per section, not one per key")
            self.assertEqual(axe_problems(), [], language)
            W.shot(f"settings-{language}.png", 390, 844)
        W.MEASURED["settings page height at 390×844"] = f"{heights['en']} px (English), {heights['ko']} px (Korean); was 8,460 px"
        self.assertLess(max(heights.values()), 8460 // 2 + 200)

    def test_d_one_save_sends_a_sections_changes_together(self):
        try:
            open_phone()
            click(W.css('[data-nc="settings-section"][data-section="s_sound"] details.more summary'))
            rate = W.css("#s-speech-rate")
            rate.clear()
            rate.send_keys("180")
            W.DRIVER.execute_script("const s = document.getElementById('s-speech-volume'); s.value = 40;"
                                    "s.dispatchEvent(new Event('input'))")
            click(W.css('[data-nc="settings-section"][data-section="s_sound"] [data-nc="section-save"]'))
            W.wait_for(lambda: settings()["sources"]["speech.rate"] == "web", what="the section saved")
            answer = settings()
            self.assertEqual((answer["values"]["speech.rate"], answer["values"]["speech.volume"]), (180, 40))
            self.assertEqual(answer["sources"]["audio.device"], "file", "an unchanged key is not saved")
            W.wait_for(lambda: W.css('[data-nc="settings-section"][data-section="s_sound"] [data-nc="section-note"]').text
                       .startswith("Saved."), what="Saved in the section")
            self.assertIn("Speaking speed", W.hook("restart-banner").text)
        finally:
            W.api("/api/settings/reset", json.dumps({"keys": ["speech.rate", "speech.volume"]}).encode())
            W.DRIVER.execute_script("localStorage.removeItem('nc-restart-pending')")

    def test_e_restart_now_applies_a_saved_change_and_says_so(self):
        online = W.NODE.subscribe("availability")
        try:
            open_phone()
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.node.started_ms)"), what="node.started_ms")
            click(W.css('[data-nc="settings-section"][data-section="s_sound"] details.more summary'))
            rate = W.css("#s-speech-rate")
            rate.clear()
            rate.send_keys("170")
            click(W.css('[data-nc="settings-section"][data-section="s_sound"] [data-nc="section-save"]'))
            W.wait_for(lambda: W.hook("restart-banner").is_displayed(), what="the restart banner")
            self.assertIn("Speaking speed", W.hook("restart-pending").text)
            mark = online.count()
            started = time.monotonic()
            click(W.hook("restart-now"))
            online.wait(lambda p: p == "offline", timeout=10, after=mark)
            W.wait_for(lambda: W.hook("restart-status").text.startswith("Restarted"), timeout=30, what="Restarted on the page")
            took = time.monotonic() - started
            self.assertEqual(W.hooks("restart-now"), [])
            W.MEASURED["settings page: Restart now to 'Restarted' shown"] = f"{took:.2f} s"
            # A reload after the restart: nothing waits for one any more.
            open_phone()
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.node.started_ms)"), what="node.started_ms")
            self.assertFalse(W.hook("restart-banner").is_displayed())
        finally:
            online.stop()
            W.api("/api/settings/reset", json.dumps({"keys": ["speech.rate"]}).encode())
            W.DRIVER.execute_script("localStorage.removeItem('nc-restart-pending')")


def count_english(paths=PAGES):
    """{page: [English words]} with locale ko, each page rendered at a phone's size."""
    counts = {}
    for path in paths:
        open_phone(path)
        W.wait_for(lambda: W.DRIVER.execute_script("return document.documentElement.lang") == "ko", what=f"{path} in Korean")
        W.settled(what=f"{path}'s late parts (device lists) drawn")
        counts[path] = english_words()
    return counts


class T_SettingsKorean(unittest.TestCase):
    def test_a_the_korean_settings_page_shows_no_english_word_of_the_apps(self):
        in_korean(self)
        open_phone()
        W.wait_for(lambda: W.css("main h1").text == "설정", what="the page in Korean")
        W.wait_for(lambda: W.hook("audio-status").text, what="the sound part")
        for more in W.DRIVER.find_elements(By.CSS_SELECTOR, "details.more"):
            W.DRIVER.execute_script("arguments[0].open = true", more)
        self.assertEqual(english_words(), [])
