"""The rest of a person's app (issue 41 item 6), in test_web's Chromium against its node (read at call
time), at a phone's size (390×844):
- every page but Settings (test_settings_words.py has it) shows no English word of the app's own in
  Korean (count_english, rendered), and every entry of the pages' string tables has its Korean;
- no configuration key, file name, doc path or raw library error in any page's visible text, in
  English and Korean: a message says what it means and what to do, the detail is behind "Details";
- the face's readiness pill says why and links to the fix, meets AA contrast on a white face, and the
  face shows the noise and its sleep timer while they play;
- every tap target at least 44 px."""
import json
import re
import unittest

from selenium.webdriver.common.by import By

import test_web as W
from test_accessibility import AXE, TAGS, seed, unseed
from test_settings_words import NAMES, count_english, in_korean, open_phone

PAGES = ("/", "/alarms", "/noise", "/radio", "/style", "/device", "/routines", "/timers")
# Country codes are the directory's, not words (the radio page's "Two letters: KR, US, DE").
COUNTRY_CODES = {"KR", "US", "DE"}
# Table entries that are the same in both languages on purpose: names, not words.
SAME_IN_BOTH = {"MQTT", "San Francisco", "Monaco", "Courier", "{n} kb/s", "—"}

TABLES = """
  const tables = Object.assign({}, NC.tables);
  if (typeof AlarmFade !== 'undefined') tables.fade = AlarmFade.words;
  const gaps = [];
  const latin = (v) => /[a-z]{3}/i.test(JSON.stringify(v));
  for (const [name, t] of Object.entries(tables)) {
    for (const k of Object.keys(t.en)) {
      const en = t.en[k], ko = (t.ko || {})[k];
      if (ko === undefined || ko === '') gaps.push(`${name}.${k}: no Korean`);
      else if (JSON.stringify(ko) === JSON.stringify(en) && latin(en) && !arguments[0].includes(en)) gaps.push(`${name}.${k}: "${ko}" is English`);
    }
  }
  return [Object.keys(tables), gaps];"""

# The page's visible text: text nodes drawn on screen (not inside a closed "Details", nor a setting's
# key hint on Settings, which the issue keeps as a hint), and the placeholders and labels read aloud.
VISIBLE_TEXT = """
  const parts = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, parent = node.parentElement;
    if (!parent || parent.closest('script, style, .hint code, details:not([open]) > :not(summary)')) continue;
    if (!parent.getClientRects().length) continue;
    parts.push(node.textContent);
  }
  for (const e of document.querySelectorAll('[placeholder], [aria-label]')) {
    if (e.getClientRects().length) parts.push((e.getAttribute('placeholder') || '') + ' ' + (e.getAttribute('aria-label') || ''));
  }
  return parts.join(' ');"""

# What a person should never read: a raw ALSA/system error, a doc path, a file name.
MACHINE_WORDS = re.compile(r"No such file|cannot open|snd_pcm|errno|\bdocs/|\b[\w-]+\.(?:md|ya?ml|json|conf|service)\b", re.I)

TAP_TARGETS = """
  const small = [], seen = new Set();
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=switch]')) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const target = e.closest('label') || e; // a checkbox's label is its target
    if (seen.has(target)) continue;
    seen.add(target);
    // WCAG 2.5.8's inline exception: a link inside a sentence.
    if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') continue;
    const r = target.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      small.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${(e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 24)}"`
        + ` ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return small;"""

RUN_AXE_ON = """
const done = arguments[arguments.length - 1];
axe.run({include: [arguments[0]]}, {runOnly: {type: 'tag', values: arguments[1]}, resultTypes: ['violations']})
  .then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => (n.failureSummary || '').split('\\n').slice(1, 2).join('')).join('; '))))
  .catch((e) => done(['axe-error: ' + e]));
"""


def wait_state(path):
    W.wait_for(lambda: W.DRIVER.execute_script("return typeof NC !== 'undefined' && !!NC.state.node && !!NC.state.audio"),
               what=f"{path}'s state")


def config_keys():
    """The node's dotted configuration keys and their sections (devices.light of devices.light.topic),
    and the underscored last parts (sounds_dir): never a page's visible text outside Settings' hints."""
    keys = set()
    for key in json.loads(W.api("/api/settings")[1])["values"]:
        parts = key.split(".")
        keys.update(".".join(parts[:n]) for n in range(2, len(parts) + 1))
        keys.update(p for p in parts if "_" in p)
    return keys


class U_KoreanPages(unittest.TestCase):
    def test_a_every_page_in_korean_shows_no_english_word_of_the_apps(self):
        in_korean(self)
        counts = count_english(PAGES)
        english = {path: [w for w in words if w not in NAMES | COUNTRY_CODES] for path, words in counts.items()}
        W.MEASURED["English words of the app's own on the Korean pages at 390×844"] = ", ".join(
            f"{path} {len(words)}" for path, words in english.items()) + " (were / 1, /alarms 8, /noise 25, /radio 16, /style 2," \
            " /device 16, /routines 8, /timers 16)"
        self.assertEqual({path: words for path, words in english.items() if words}, {})

    def test_b_every_string_table_entry_has_its_korean(self):
        tables, gaps = set(), []
        for path in PAGES:
            open_phone(path)
            wait_state(path)
            names, missing = W.DRIVER.execute_script(TABLES, sorted(SAME_IN_BOTH))
            tables.update(names)
            gaps += [gap for gap in missing if gap not in gaps]
        self.assertTrue({"app", "radio", "alarms", "fade"} <= tables, tables)
        self.assertEqual(gaps, [])


class V_MessagesInWords(unittest.TestCase):
    def test_a_no_key_file_doc_path_or_raw_error_on_any_page_in_either_language(self):
        keys = config_keys()
        key_pattern = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True)) + r")(?![\w])")
        found = []
        for language in ("en", "ko"):
            if language == "ko":
                in_korean(self)
            for path in PAGES + ("/settings",):
                if path == "/device":  # after the stream's own ~/buttons: arriving later, it would undo the put below
                    W.open_page_streamed(path, "buttons", 390, 844)
                else:
                    open_phone(path)
                wait_state(path)
                if path == "/device":  # the message a node without buttons shows
                    W.DRIVER.execute_script("NC.put('buttons', [])")
                    W.wait_for(lambda: W.hooks("no-buttons"), what="no buttons")
                W.wait_for(lambda: W.DRIVER.execute_script("return document.documentElement.lang") == language, what="the language")
                text = W.DRIVER.execute_script(VISIBLE_TEXT)
                found += [f"{path} ({language}): {m.group(0)!r}" for m in MACHINE_WORDS.finditer(text)]
                found += [f"{path} ({language}): key {m.group(0)!r}" for m in key_pattern.finditer(text)]
        self.assertEqual(found, [])

    def test_b_each_message_says_what_to_do_and_keeps_the_detail_behind_details(self):
        audio = json.loads(W.NODE.retained("audio"))
        self.assertEqual(audio["status"], "unavailable", "the test node plays on no sound device")
        open_phone("/noise")
        wait_state("/noise")
        notice = W.wait_for(lambda: W.DRIVER.find_element(By.ID, "audio-notice"), what="the audio notice")
        W.wait_for(notice.is_displayed, what="the audio notice shown")
        self.assertIn("No sound output: nothing the clock plays can be heard.", notice.text)
        self.assertEqual(notice.find_element(By.TAG_NAME, "a").get_attribute("pathname"), "/settings")
        detail = notice.find_element(By.CSS_SELECTOR, 'details [data-nc="detail"]')
        self.assertFalse(detail.is_displayed(), "the raw error is closed away")
        self.assertIn(audio["error"], detail.get_attribute("textContent"))
        W.open_page_streamed("/device", "buttons", 390, 844)  # the stream's ~/buttons first: NC.put below stays
        wait_state("/device")
        W.wait_for(lambda: W.hook("no-lamp"), what="no lamp")
        # Read afresh: the page draws the notice again as the device's state arrives.
        said, detail = W.fresh(lambda: (lambda lamp: (lamp.text, lamp.find_element(By.CSS_SELECTOR, '[data-nc="detail"]')
                                                      .get_attribute("textContent")))(W.hook("no-lamp")), what="the lamp notice")
        self.assertTrue(said.startswith("No lamp is set up: to wake with light, add your lamp in Settings."), said)
        self.assertIn("devices.light", detail)
        W.DRIVER.execute_script("NC.put('buttons', [])")
        buttons = W.wait_for(lambda: W.hook("no-buttons"), what="no buttons")
        self.assertIn("add yours in Settings", buttons.text)
        summary = buttons.find_element(By.TAG_NAME, "summary")
        summary.click()
        W.wait_for(lambda: "docs/bedroom.md" in buttons.text, what="the doc named once Details is open")


class W_FacePill(unittest.TestCase):
    def tearDown(self):
        W.set_style(W.DEFAULT_STYLE)

    def open_face(self):
        W.open_page("/", 390, 844)
        W.wait_for(lambda: W.DRIVER.find_element(By.ID, "ready-warning").is_displayed(), timeout=8, what="the readiness pill")
        return W.DRIVER.find_element(By.ID, "ready-warning")

    def test_a_the_pill_says_why_and_links_to_the_fix_in_both_languages(self):
        pill = self.open_face()
        self.assertIn("audio_unavailable", pill.get_attribute("data-codes"))
        W.wait_for(lambda: pill.text.startswith("The next alarm may not be heard: the speaker does not play."), what="why")
        fix = pill.find_element(By.CSS_SELECTOR, '[data-nc="ready-fix"]')
        self.assertEqual((fix.text, fix.get_attribute("pathname")), ("Fix it", "/settings"))
        W.shot("face-pill-en.png", 390, 844)
        in_korean(self)
        pill = self.open_face()
        W.wait_for(lambda: pill.text.startswith("다음 알람이 들리지 않을 수 있습니다: 스피커가 재생하지 않습니다."), what="why, in Korean")
        self.assertEqual(pill.find_element(By.CSS_SELECTOR, '[data-nc="ready-fix"]').text, "해결하기")
        W.shot("face-pill-ko.png", 390, 844)

    def test_b_the_pill_meets_aa_contrast_on_a_white_face(self):
        W.set_style({"background_color": "#FFFFFF", "digit_color": "#000000"})
        self.open_face()
        W.wait_for(lambda: W.DRIVER.execute_script("return getComputedStyle(document.getElementById('face')).backgroundColor")
                   == "rgb(255, 255, 255)", what="the white face")
        with open(AXE) as f:
            W.DRIVER.execute_script(f.read())
        self.assertEqual(W.DRIVER.execute_async_script(RUN_AXE_ON, "#ready-warning", TAGS), [])

    def test_c_the_face_shows_the_noise_and_its_sleep_timer_while_they_play(self):
        try:
            self.assertTrue(json.loads(W.api("/api/noise/sound/set", b"rain")[1])["ok"])
            self.assertTrue(json.loads(W.api("/api/noise/sleep_timer/set", b"30")[1])["ok"])
            self.assertTrue(json.loads(W.api("/api/noise/set", b"ON")[1])["ok"])
            self.open_face()
            line = W.wait_for(lambda: W.hooks("face-noise") and W.hook("face-noise"), what="the noise on the face")
            stops = json.loads(W.api("/api/state")[1])["noise"]["stops_at"]
            W.wait_for(lambda: line.text.startswith("Noise: Rain · Stops at ") and stops[11:16] in line.text, what="the noise and its timer")
            self.assertIn("not heard", line.text, "the test node's speaker does not play it")
        finally:
            W.api("/api/noise/set", b"OFF")
            W.api("/api/noise/sleep_timer/set", b"0")
        W.wait_for(lambda: not W.hooks("face-noise"), what="the line gone once the noise stops")


class X_TapTargets(unittest.TestCase):
    def test_every_tap_target_is_at_least_44_px_on_a_phone(self):
        seed(W.NODE)
        self.addCleanup(unseed, W.NODE)
        small = []
        for path in PAGES + ("/settings",):
            open_phone(path)
            wait_state(path)
            W.wait_for(lambda: W.DRIVER.execute_script("return document.querySelectorAll('[data-id]').length")
                       or path not in ("/alarms", "/routines", "/radio"), what=f"{path}'s rows")
            small += [f"{path}: {e}" for e in W.DRIVER.execute_script(TAP_TARGETS)]
        self.assertEqual(small, [])
