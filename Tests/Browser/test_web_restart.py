"""The node restarted under the open page: it signs in again (run by test_web, with its node and browser)."""
import json
import os
import re
import unittest

from selenium.webdriver.common.by import By

import test_web as W


class F_Restart(unittest.TestCase):
    def test_the_face_survives_a_node_restart(self):
        """The node stops (the stream breaks, the face says so) and comes back: the face picks
        up the stream again by itself and follows the next change."""
        W.set_style(W.DEFAULT_STYLE)
        W.open_page("/")
        W.wait_for(lambda: re.fullmatch(r"\d\d:\d\d", W.face_text() or ""), what="the face")
        W.NODE.stop()
        W.wait_for(lambda: W.DRIVER.find_element(By.ID, "link-state").is_displayed(), what="the face noticing")
        W.NODE.start()
        W.wait_for(lambda: not W.DRIVER.find_element(By.ID, "link-state").is_displayed(), timeout=15,
                   what="the face reconnecting")
        W.NODE.publish("style/set", json.dumps({"digit_color": "#00AAFF"}))
        try:
            W.wait_for(lambda: W.colour_of('[data-nc="time"]') == W.rgb("#00AAFF"), timeout=3, what="a change after the restart")
        finally:
            W.set_style(W.DEFAULT_STYLE)

    def test_a_new_token_sends_an_open_face_to_the_login_form(self):
        """The token file deleted and the node restarted (a lost phone): the open face's stream is
        refused (401), and the page shows the login form instead of a stale clock."""
        W.open_page("/")
        W.wait_for(lambda: re.fullmatch(r"\d\d:\d\d", W.face_text() or ""), what="the face")
        W.NODE.stop()
        os.remove(os.path.join(W.NODE.state_dir, "web_token"))
        W.NODE.start()
        try:
            W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, "form input[name=token]"), timeout=20,
                       what="the login form")
        finally:
            W.sign_in()
