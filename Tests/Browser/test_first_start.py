"""The face's first start (v1.3): "Set up this clock" until the wizard is done, in the same browser against the
same node as test_web (which runs this as its own: the rig, the node and the browser are test_web's, read at call time)."""
import json
import os
import unittest

import test_web as W
from test_programmes import click


class N_FirstStart(unittest.TestCase):
    """First start (issue 30 part 6, v1.4): until settings.json says the wizard was finished, the face
    and every page link to it ("Set up this clock"); the wizard itself is test_setup.py's."""

    def test_a_set_up_this_clock_shows_until_the_wizard_is_finished(self):
        # An alarm, so the face shows its link instead of opening the wizard (no sound device and no alarm do that).
        W.api("/api/alarm/add", json.dumps({"id": "first-start", "time": "07:00"}).encode())
        stored = os.path.join(W.NODE.state_dir, "settings.json")
        with open(stored) as f:
            kept = f.read()
        with open(stored, "w") as f:
            f.write(json.dumps({"version": 1, "values": json.loads(kept)["values"]}))
        try:
            for path in ("/", "/alarms", "/settings"):
                W.open_page(path)
                link = W.wait_for(lambda: (lambda e: e if e.is_displayed() else None)(W.hook("setup")), what=f"Set up this clock on {path}")
                self.assertEqual(link.text, "Set up this clock")
                self.assertEqual(link.get_attribute("href"), W.NODE.url + "/setup")
                self.assertGreaterEqual(link.size["height"], 44, f"the link's tap target on {path}")
            click(W.hook("setup"))
            W.wait_for(lambda: W.DRIVER.current_url.startswith(W.NODE.url + "/setup"), what="the wizard")
        finally:
            with open(stored, "w") as f:
                f.write(kept)
            W.api("/api/alarm/delete", json.dumps({"id": "first-start"}).encode())
        # A node set up once: once the face has the node's state, no link.
        W.open_page("/")
        W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.audio)"), what="the face's state")
        self.assertEqual(W.DRIVER.execute_script("return NC.state.node.setup_done"), True)
        self.assertFalse(W.hook("setup").is_displayed())
