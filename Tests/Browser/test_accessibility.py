"""Every page under axe-core's WCAG 2.2 AA rules and under the Content-Security-Policy, in the
same headless Chromium as test_web (which runs this as its own: the rig, the node and the
browser are test_web's, read at call time).

Every page at 390x844 and 1280x900, signed in and signed out, on the English node and on a
Korean one: no axe violation of impact serious or critical (tags wcag2a, wcag2aa, wcag21a,
wcag21aa, wcag22aa), lang set, one main and one h1, and not one CSP violation — caught by a
`securitypolicyviolation` listener that DevTools adds to every document before the page's own
scripts, and in Chromium's console log. axe-core comes from scripts/axe-core.sh (make deps)."""
import json
import os
import time
import unittest
import urllib.request

from selenium.webdriver.common.by import By

import rig
import test_web as W

AXE = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".axe-core", "axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SIZES = ((390, 844), (1280, 900))
# "/#ringing": the face while the alarm rings (alarm/test), with the test node's "not heard" warning;
# "/#radio": the face while the noise plays a station (v1.3), with its "now playing" line.
# "/setup#…": the first-start wizard's steps (v1.4).
SIGNED_IN_PAGES = ("/", "/alarms", "/noise", "/radio", "/style", "/device", "/routines", "/timers", "/settings", "/#radio",
                   "/no-such-page", "/#ringing", "/setup", "/setup#zone", "/setup#speaker", "/setup#broker", "/setup#alarm", "/setup#done")
# Signed out every page is the sign-in form; once more with a wrong token (its alert and no retry).
SIGNED_OUT_PAGES = ("/alarms", "/style?token=wrong-token")

WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);
});
"""

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
  .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}))))
  .catch((e) => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));
"""

SHAPE = """
return {lang: document.documentElement.lang, main: document.querySelectorAll('main').length,
        h1: document.querySelectorAll('h1').length, csp: window.__csp || null};
"""


def seed(node):
    """An alarm, a routine, a running timer and a radio station on the node, so the pages show their rows and buttons."""
    node.publish("station/add", json.dumps({"id": "audit_jazz", "name": "Jazz", "url": "http://127.0.0.1:9/jazz.mp3"}))
    node.publish("alarm/add", json.dumps({"id": "audit_work", "time": "06:45", "repeat": "weekdays", "label": "Work"}))
    node.publish("routine/add", json.dumps({"id": "audit_nap", "label": "Nap", "start": "14:00",
                                            "duration_minutes": 30, "repeat": ["sun"], "sound": "rain", "volume": 30}))
    node.publish("timer/start", json.dumps({"minutes": 30, "label": "Audit"}))

    def seeded():
        request = urllib.request.Request(node.url + "/api/state", headers={"Authorization": f"Bearer {node.token}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            state = json.loads(response.read())
        return any(a.get("id") == "audit_work" for a in state.get("alarms", [])) and \
            any(r.get("id") == "audit_nap" for r in state.get("routines", [])) and \
            any(t.get("label") == "Audit" for t in state.get("timers", [])) and \
            any(s.get("id") == "audit_jazz" for s in state.get("stations", []))
    W.wait_for(seeded, what="the alarm, the routine and the timer in the node's state")


def unseed(node):
    node.publish("alarm/dismiss", "")
    node.publish("timer/cancel", "all")
    node.publish("routine/delete", "audit_nap")
    node.publish("alarm/delete", "audit_work")
    node.publish("station/delete", "audit_jazz")


class H_Accessibility(unittest.TestCase):
    def test_every_page_passes_axe_and_the_content_security_policy(self):
        self.assertTrue(os.path.exists(AXE), f"{AXE} is missing: run make deps (scripts/axe-core.sh)")
        with open(AXE) as f:
            axe = f.read()
        driver = W.DRIVER
        watch = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_CSP})["identifier"]
        korean = rig.Node(W.NODE.binary, os.path.join(W.TMP.name, "audit-ko"), W.BROKER.port, node_id="audit_ko",
                          locale="ko", timezone="Asia/Seoul")
        korean.start()
        problems, audited, started = [], 0, time.monotonic()
        try:
            for node, language in ((W.NODE, "en"), (korean, "ko")):
                seed(node)
                for signed_in in (True, False):
                    if signed_in:
                        driver.get(f"{node.url}/?token={node.token}")
                        W.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-nc="time"]'), what="signed in")
                    else:
                        driver.delete_all_cookies()
                    driver.get_log("browser")  # forget what came before
                    for path in SIGNED_IN_PAGES if signed_in else SIGNED_OUT_PAGES:
                        where = f"{language} {'signed in' if signed_in else 'signed out'} {path}"
                        self.load(node, path, signed_in)
                        shape = driver.execute_script(SHAPE)
                        if shape["lang"] != language or shape["main"] != 1 or shape["h1"] != 1:
                            problems.append(f"{where}: lang={shape['lang']!r}, {shape['main']} main, {shape['h1']} h1")
                        driver.execute_script(axe)
                        for width, height in SIZES:
                            rig.set_viewport(driver, width, height)
                            driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
                            violations = driver.execute_async_script(RUN_AXE, TAGS)
                            audited += 1
                            for v in violations:
                                if v["impact"] in ("serious", "critical"):
                                    problems.append(f"{where} {width}x{height}: {v['id']} ({v['impact']}): {v['help']}: "
                                                    + "; ".join(v["nodes"][:4]))
                        csp = driver.execute_script("return window.__csp") or []
                        logged = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
                        problems += [f"{where}: CSP violation: {c}" for c in csp + logged]
                unseed(node)
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": watch})
            korean.stop()
            rig.set_viewport(driver, 800, 480)
            W.sign_in()
        W.MEASURED["accessibility audit"] = f"{audited} page views under axe-core in {time.monotonic() - started:.1f} s"
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def load(self, node, path, signed_in):
        """Opens path and waits until it shows what it will show: the state for the app's pages,
        the sign-in form after its one retry, the page itself otherwise."""
        driver = W.DRIVER
        driver.get(node.url + path)
        complete = lambda: driver.execute_script("return document.readyState") == "complete"  # noqa: E731
        if not signed_in:
            bare = path.split("?")[0]
            if "token=" not in path:
                # The first load retries once (location.replace); within 10 s a second load does not.
                W.wait_for(lambda: driver.execute_script(f"return sessionStorage.getItem('noiseclock-signin-retry:{bare}')"),
                           what="the sign-in page's retry")
                driver.get(node.url + path)
            W.wait_for(lambda: complete() and driver.find_elements(By.CSS_SELECTOR, '[data-nc="login-form"]'),
                       what=f"the sign-in form at {path}")
        elif path == "/no-such-page":
            W.wait_for(complete, what=f"{path} to load")
        else:
            W.wait_for(lambda: complete() and driver.execute_script(
                "return typeof NC !== 'undefined' && !!(NC.state.node && NC.state.time && NC.state.alarms && NC.state.style)"),
                what=f"{path} with the node's state")
        if path == "/#radio":
            node.publish("noise/set", json.dumps({"playing": True, "sound": "radio:audit_jazz"}))
            W.wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-nc="now-playing"]').is_displayed(), timeout=8,
                       what="the face with its now playing line")
        if path == "/no-such-page":
            node.publish("noise/set", "OFF")
        if path == "/#ringing":
            node.publish("alarm/test", "audit_work")  # the not-heard warning is an event: the face must be open
            W.wait_for(lambda: driver.find_element(By.ID, "ring-failed").is_displayed(), timeout=8,
                       what="the ringing face with its not-heard warning")
        rows = {"/alarms": "alarm-row", "/routines": "routine-row", "/timers": "timer-row", "/settings": "setting",
                "/radio": "station-row"}.get(path) if signed_in else None
        if rows:
            W.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-nc="{rows}"]'), what=f"the rows of {path}")
