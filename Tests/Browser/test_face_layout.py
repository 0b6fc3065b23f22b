"""The face's layout on small screens, measured with the elements' bounding rectangles in the
real Chromium, against test_web's node (which has no sound card, so its readiness warning is
always shown): the warning and the date, the Speak chip and the next alarm, never over each
other; and while an alarm rings, the Speak chip is there, clear of Snooze and Dismiss, and the
node's answer shows beside it (here its refusal: without sound the words cannot be heard). With LAYOUT_SHOTS set to a directory, each size's face is saved there as a PNG."""
import json
import os
import re
import unittest

import rig
import test_web as W

SIZES = ((390, 844), (320, 640), (844, 390), (1024, 768))
RECTS = """
const out = {};
for (const [name, selector] of Object.entries(arguments[0])) {
  const e = document.querySelector(selector);
  if (!e || !e.getClientRects().length) { out[name] = null; continue; }
  const r = e.getBoundingClientRect();
  out[name] = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
}
return out;"""


def rects(**selectors):
    return W.DRIVER.execute_script(RECTS, selectors)


def overlap(a, b):
    """The area two rectangles share, in px² (0 when they only touch)."""
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def resize(width, height):
    rig.set_viewport(W.DRIVER, width, height)
    W.wait_for(lambda: W.DRIVER.execute_script("return [innerWidth, innerHeight]") == [width, height],
               what=f"a {width}×{height} viewport")
    # The face refits on the ResizeObserver's next frame: two frames later it is drawn.
    W.DRIVER.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done))")


def save(name):
    folder = os.environ.get("LAYOUT_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        W.DRIVER.save_screenshot(os.path.join(folder, name))


def wake_chips():
    """A tap on the face (on its date) shows the chips for four seconds."""
    W.DRIVER.execute_script("document.querySelector('[data-nc=date]').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    W.wait_for(lambda: float(W.DRIVER.find_element("id", "chrome").value_of_css_property("opacity")) > 0.5,
               what="the chips showing")


class K_FaceLayout(unittest.TestCase):
    def setUp(self):
        W.set_style(W.DEFAULT_STYLE)
        W.NODE.publish("alarm/add", json.dumps({"id": "layout-next", "time": "23:30", "label": "Morning workout"}))
        W.open_page("/", 390, 844)
        W.wait_for(lambda: W.DRIVER.find_element("id", "ready-warning").is_displayed(), timeout=8, what="the readiness warning")
        W.wait_for(lambda: "Morning workout" in W.hook("next-alarm").get_attribute("textContent"), what="the next alarm")
        W.wait_for(lambda: W.hook("date").text, what="the date")
        # A tap also toggles full screen (test_web's test of it), which would make the viewport the
        # screen's: here the page has none, so each size measured is the one the test set.
        W.DRIVER.execute_script("document.documentElement.requestFullscreen = null")

    def tearDown(self):
        W.NODE.publish("alarm/dismiss", "")
        W.NODE.publish("alarm/delete", "layout-next")

    def test_the_warning_is_clear_of_the_date_and_the_speak_chip_of_the_next_alarm(self):
        for width, height in SIZES:
            with self.subTest(size=f"{width}×{height}"):
                resize(width, height)
                wake_chips()
                r = rects(warning="#ready-warning", date='[data-nc="date"]', battery='[data-nc="battery"]',
                          next='[data-nc="next-alarm"]', when='[data-nc="next-alarm"] > span', speak="#speak",
                          settings="#chrome a.chip", stage=".face .stage", time='[data-nc="time"]')
                self.assertTrue(all(r.values()), r)
                self.assertEqual(overlap(r["warning"], r["date"]), 0, f"the warning over the date: {r}")
                self.assertEqual(overlap(r["warning"], r["battery"]), 0, f"the warning over the battery: {r}")
                for chip in ("speak", "settings"):
                    self.assertEqual(overlap(r[chip], r["next"]), 0, f"the {chip} chip over the next alarm: {r}")
                # The alarm's time itself is whole (only a long label is cut short, with an ellipsis).
                self.assertLessEqual(r["when"]["right"], r["next"]["right"] + 0.5, r)
                # And the digits were refitted to the stage the warning's line leaves them (their line box
                # is a few % taller than the glyphs the fit allows for: 8 px of slack).
                self.assertLessEqual(r["time"]["bottom"] - r["time"]["top"], r["stage"]["bottom"] - r["stage"]["top"] + 8, r)
                self.assertLessEqual(r["time"]["right"] - r["time"]["left"], r["stage"]["right"] - r["stage"]["left"] + 0.5, r)
                self.assertEqual(W.DRIVER.execute_script("return [innerWidth, innerHeight]"), [width, height])
                save(f"face-layout-{width}x{height}.png")

    def test_the_link_state_is_clear_of_the_next_alarm_and_the_chips(self):
        """The pill that says the node is offline (or the page reconnecting) has a line of its own at
        the face's foot: at 320 px it used to sit over the next alarm's bell and time."""
        W.DRIVER.execute_script("NC.put('availability', 'offline')")  # as the node's last will would say
        try:
            link = W.wait_for(lambda: W.DRIVER.find_element("id", "link-state").is_displayed()
                              and W.DRIVER.find_element("id", "link-state"), what="the link state")
            self.assertEqual(link.text, "The node is offline")
            for width, height in SIZES:
                with self.subTest(size=f"{width}×{height}"):
                    resize(width, height)
                    wake_chips()
                    r = rects(link="#link-state", next='[data-nc="next-alarm"]', chips="#chrome", date='[data-nc="date"]',
                              stage=".face .stage", time='[data-nc="time"]')
                    self.assertTrue(all(r.values()), r)
                    for other in ("next", "chips", "date", "time"):
                        self.assertEqual(overlap(r["link"], r[other]), 0, f"the link state over {other}: {r}")
                    self.assertLessEqual(r["link"]["bottom"], height, r)
                    save(f"face-link-{width}x{height}.png")
        finally:
            W.DRIVER.execute_script("NC.put('availability', 'online')")

    def test_while_an_alarm_rings_the_speak_chip_is_there_clear_of_snooze_and_dismiss(self):
        W.NODE.publish("alarm/test", "layout-next")
        W.wait_for(lambda: W.hook("snooze").is_displayed() and W.hook("dismiss").is_displayed(), timeout=3,
                   what="Snooze and Dismiss")
        W.wait_for(lambda: W.DRIVER.find_element("id", "ring-failed").is_displayed(), timeout=8, what="the not-heard warning")
        for width, height in SIZES[:3]:
            with self.subTest(size=f"{width}×{height}"):
                resize(width, height)
                wake_chips()
                speak = W.hook("speak-time")
                self.assertTrue(speak.is_displayed(), "the Speak chip while it rings")
                r = rects(speak="#speak", snooze='[data-nc="snooze"]', dismiss='[data-nc="dismiss"]', failed="#ring-failed",
                          title="#ring-title", warning="#ready-warning", date='[data-nc="date"]', battery='[data-nc="battery"]')
                self.assertTrue(all(r.values()), r)
                for other in ("snooze", "dismiss", "failed", "title"):
                    self.assertEqual(overlap(r["speak"], r[other]), 0, f"the Speak chip over {other}: {r}")
                self.assertEqual(overlap(r["warning"], r["date"]), 0, f"the warning over the date: {r}")
                # Reachable: what a tap at the chip's middle lands on is the chip.
                self.assertTrue(W.DRIVER.execute_script(
                    "const r = arguments[0].getBoundingClientRect();"
                    "return arguments[0].contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2))",
                    speak), "a tap on the Speak chip reaches it")
                W.DRIVER.execute_script("document.getElementById('spoken').textContent = ''")
                speak.click()
                said = W.wait_for(lambda: W.hook("spoken").is_displayed() and W.hook("spoken").text, timeout=8,
                                  what="the node's answer")
                # This node has no sound card: it refuses to speak (audio_unavailable), in its own words.
                self.assertIn("the words cannot be heard", said)
                self.assertEqual(W.hook("spoken").get_attribute("data-ok"), "false")
                self.assertEqual(W.hook("alarm-state").get_attribute("data-state"), "ringing", "Speak neither snoozes nor dismisses")
                spoken = rects(spoken="#spoken")["spoken"]
                for other in ("speak", "snooze", "dismiss", "failed", "title", "warning", "date", "battery"):
                    self.assertEqual(overlap(spoken, r[other]), 0, f"what was said over {other}: {spoken} {r}")
                self.assertEqual(W.DRIVER.execute_script("return [innerWidth, innerHeight]"), [width, height])
                save(f"face-ringing-{width}x{height}.png")
        self.assertIsNotNone(re.search(r"\S", W.DRIVER.find_element("id", "ring-title").text))
