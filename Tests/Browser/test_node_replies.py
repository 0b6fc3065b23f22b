"""The node's own replies on a Korean page (issue 41 item 6): a refusal on ~/response or from the HTTP
API (its `error` code and English `message`), a station test's cause, a broker test's reason. Each is
brought about by a person's taps on test_web's node with `locale` ko at a phone's size (390×844): the
page shows Korean words for it (no English word of the app's own, counted on the rendered page as
test_settings_words.english_words does), and the node's English message stays behind a closed
"Details". The replies' string table has Korean for every code (U_KoreanPages.test_b reads it too)."""
import glob
import json
import os
import re
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W
from test_setup import Taps
from test_settings_words import NAMES, in_korean, open_phone

def node_codes():
    """Every error code the node answers, read from its sources: CommandError.Code's and the HTTP API's
    own (`code: "busy"`, `"bad_request"`), and the page's own two (no answer: `network`; not JSON: `http`)."""
    codes = {"bad_request", "network", "http"}
    for path in glob.glob(os.path.join(rig.ROOT, "Sources", "**", "*.swift"), recursive=True):
        with open(path) as f:
            text = f.read()
        codes.update(re.findall(r'\bcode: "([a-z_]+)"', text))
        if path.endswith("CommandError.swift"):
            codes.update(re.findall(r'case \w+ = "([a-z_]+)"', text))
    return sorted(codes)


def shown(name):
    """The hook `name` once it is shown with some text."""
    return W.wait_for(lambda: (lambda e: e if e.is_displayed() and e.text.strip() else None)(W.hook(name)), timeout=10,
                      what=f"{name} shown")


def closed_detail(box):
    """The text behind the box's closed Details ('' when it has none)."""
    return W.DRIVER.execute_script("""
      const d = arguments[0].querySelector('details');
      return d && !d.open ? d.textContent : '';""", box)


class Y_NodeRepliesInKorean(unittest.TestCase):
    def setUp(self):
        in_korean(self)
        self.taps = Taps()

    def english_in(self, where, box):
        """The English words of `box` shown (not behind a closed Details): none may be the app's own.
        What it says is quoted among the figures."""
        shown_text = W.DRIVER.execute_script(
            "const c = arguments[0].cloneNode(true); c.querySelectorAll('details').forEach((e) => e.remove());"
            "return c.textContent.trim();", box)
        W.MEASURED[f"node reply on a Korean page, {where}"] = shown_text
        words = [
            w for w in W.DRIVER.execute_script(
                "const c = arguments[0].cloneNode(true); c.querySelectorAll('details:not([open]) > :not(summary)')"
                ".forEach((e) => e.remove()); return c.textContent.match(/[A-Za-z][A-Za-z0-9_]*[A-Za-z]/g) || [];", box)
            if w not in NAMES]
        return [f"{where}: {word}" for word in words]

    @staticmethod
    def behind_details(where, box, words):
        """The node's own message (with `words` in it) behind the box's closed Details, or what is wrong."""
        detail = closed_detail(box)
        return [] if detail and words in detail else [f"{where}: the node's message is not behind Details ({box.text!r})"]

    def test_a_a_refusal_of_a_command_is_said_in_korean_with_the_nodes_words_behind_details(self):
        found = []
        # The say box on a node whose speaker does not play: ~/response audio_unavailable.
        open_phone("/device")
        W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.node.locale === 'ko')"), what="Korean")
        W.DRIVER.find_element(By.ID, "say-text").send_keys("안녕")
        self.taps.tap(W.DRIVER.find_element(By.ID, "say"))
        error = W.wait_for(lambda: (lambda e: e if e.is_displayed() and e.text.strip() else None)(W.DRIVER.find_element(By.ID, "say-error")),
                           timeout=8, what="the say box's refusal")
        found += self.english_in("/device say", error)
        found += self.behind_details("/device say", error, "cannot be heard")
        # Holidays' Pause until a day gone by (chosen in the date picker): alarms/pause refused (invalid_field).
        open_phone("/alarms")
        W.wait_for(lambda: W.DRIVER.execute_script("return Array.isArray(NC.state.alarms)"), what="the alarms")
        W.DRIVER.execute_script("document.getElementById('pause-until').value = '2020-01-01'")
        self.taps.tap(W.DRIVER.find_element(By.ID, "pause"))
        error = W.wait_for(lambda: (lambda e: e if e.is_displayed() and e.text.strip() else None)(W.DRIVER.find_element(By.ID, "pause-error")),
                           what="the pause's refusal")
        found += self.english_in("/alarms pause", error)
        found += self.behind_details("/alarms pause", error, "")
        # The radio page's typed address, refused under its field (station/add invalid_field url).
        open_phone("/radio")
        W.wait_for(lambda: W.DRIVER.execute_script("return !!NC.state.stations"), what="the stations")
        form = W.hook("station-form")
        form.find_element(By.NAME, "name").send_keys("Refused")
        form.find_element(By.NAME, "url").send_keys("ftp://radio.example/x.mp3")
        self.taps.tap(form.find_element(By.CSS_SELECTOR, "[type=submit]"))
        error = W.wait_for(lambda: next((e for e in form.find_elements(By.CSS_SELECTOR, ".error") if e.is_displayed() and e.text.strip()), None),
                           what="the form's refusal")
        found += self.english_in("/radio form", error)
        found += self.behind_details("/radio form", error, "http")
        self.assertEqual(found, [])

    def test_b_a_station_that_does_not_answer_and_a_broker_that_refuses_are_said_in_korean(self):
        port = rig.free_port()  # nothing listens there: refused at once
        status, body = W.api("/api/station/add", json.dumps({"id": "refusing", "name": "Refusing",
                                                              "url": f"http://127.0.0.1:{port}/x.mp3"}).encode())
        self.assertEqual(status, 200, body)
        self.addCleanup(lambda: W.api("/api/station/delete", b"refusing"))
        found = []
        open_phone("/radio")
        row = W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, '[data-nc="station-row"][data-id="refusing"]'), what="the station")
        self.taps.tap(row.find_element(By.CSS_SELECTOR, '[data-nc="station-test-button"]'))
        result = W.wait_for(lambda: W.DRIVER.find_element(By.CSS_SELECTOR, '[data-id="refusing"] [data-nc="station-test"][data-ok]'),
                            timeout=15, what="the station test's answer")
        self.assertEqual(result.get_attribute("data-ok"), "false", result.text)
        found += self.english_in("/radio station test", result)
        # The wizard's broker step: Test against a port nobody listens on.
        open_phone("/setup#broker")
        W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, '[data-nc="setup-step"][data-step="broker"]'), what="the broker step")
        host = W.hook("broker-host")
        host.clear()
        host.send_keys("127.0.0.1")
        box = W.hook("broker-port")
        box.clear()
        box.send_keys(str(port))
        self.taps.tap("broker-test")
        result = W.wait_for(lambda: (lambda e: e if e.get_attribute("data-ok") else None)(W.hook("broker-result")), timeout=15,
                            what="the broker test's answer")
        self.assertEqual(result.get_attribute("data-ok"), "false", result.text)
        found += self.english_in("/setup broker", result)
        found += self.behind_details("/setup broker", result, "")
        self.assertEqual(found, [])

    def test_c_every_code_the_node_answers_has_its_words_in_both_languages(self):
        open_phone("/radio")
        W.wait_for(lambda: W.DRIVER.execute_script("return typeof NodeReplies !== 'undefined'"), what="the replies' table")
        missing = W.DRIVER.execute_script("""
          const t = NC.tables.replies, gaps = [];
          for (const code of arguments[0]) for (const l of ['en', 'ko'])
            if (!t[l]['e_' + code]) gaps.push(l + ': ' + code);
          return gaps;""", node_codes())
        self.assertEqual(missing, [])

