"""Access: the token, the login form, the page weight, another site's page (run by test_web, with its node and browser)."""
import json
import os
import re
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W


class A_Access(unittest.TestCase):
    def test_page_without_token_gets_the_login_form(self):
        W.DRIVER.delete_all_cookies()
        try:
            for path in ("/", "/alarms", "/style"):
                W.DRIVER.get(W.NODE.url + path)
                form = W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, "form input[name=token]"), what="the login form")
                self.assertTrue(form[0].is_displayed())
                self.assertEqual(W.hooks("time"), [], "the face must not be served without the token")
            status, body = W.api("/api/state", token=False)
            self.assertEqual(status, 401)
            self.assertEqual(json.loads(body)["error"]["code"], "unauthorized")
            # Typing the token into the form signs in, on the page asked for, without the token in the address.
            W.DRIVER.find_element(By.CSS_SELECTOR, "form input[name=token]").send_keys(W.NODE.token)
            W.DRIVER.find_element(By.CSS_SELECTOR, "form button[type=submit], form input[type=submit]").click()
            W.wait_for(lambda: W.DRIVER.current_url == W.NODE.url + "/style", what="the style page after typing the token")
            W.wait_for(lambda: W.DRIVER.execute_script("return typeof NC !== 'undefined' && !!NC.state.style"), what="the style page's state")
        finally:
            W.sign_in()

    def test_each_pages_weight_is_at_most_150_kb(self):
        """Issue 11's "total page weight ≤ 150 KB uncompressed", as page weight is meant: everything one
        page load fetches (the document, its scripts, styles, icon and manifest), for every page, as
        served. The whole app on disk (ten pages and the sign-in form, loaded by no one at once) has a
        bound of its own, 200 KB, so it cannot grow unseen either."""
        folder = os.path.join(rig.ROOT, "Resources", "web")
        on_disk = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
        weights = {}
        for page in ("/", "/alarms", "/noise", "/style", "/device", "/routines", "/timers", "/radio", "/settings", "/setup"):
            status, body = W.api(page)
            self.assertEqual(status, 200, page)
            weight = len(body)
            linked = sorted(set(re.findall(r'(?:src|href)="(/[^"?#]*)"', body.decode())))
            self.assertTrue(any(path.endswith(".js") for path in linked), f"{page} loads no script: {linked}")
            for path in linked:
                status, part = W.api(path)
                self.assertEqual(status, 200, f"{page} links {path}")
                weight += len(part)
            weights[page] = weight
        heaviest = max(weights, key=weights.get)
        W.MEASURED["page weight"] = (f"heaviest {heaviest} {weights[heaviest] / 1024:.1f} KB with all it loads; "
                                     f"the whole app {on_disk / 1024:.1f} KB on disk")
        for page, weight in weights.items():
            self.assertLessEqual(weight, 150 * 1024, page)
        # 240 KB since v1.4: the first-start wizard is a page of its own (setup.*, alarm-fade.js: 19 KB);
        # 256 KB with every page in Korean and the messages in a person's words (issue 41: 238.8 to 249.2 KB as measured);
        # 264 KB with the node's replies in both languages (replies.js, 9 KB: 259.1 KB as measured);
        # 272 KB with the new-user trial's fixes (Wake to this, Saved on the row, the silent speaker: 266.1 KB as measured).
        self.assertLessEqual(on_disk, 272 * 1024)
        # Nothing is fetched from elsewhere.
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), errors="replace") as f:
                self.assertNotRegex(f.read(), r"(src|href)=[\"']?(https?:)?//", name)


    def test_a_link_from_another_site_lands_signed_in_and_a_new_browser_gets_the_form(self):
        """Home Assistant's "Visit device": a page on another site (here http://localhost:<port>, the node
        being http://127.0.0.1:<port>) links to /alarms. The SameSite=Strict cookie is not sent on that
        navigation; the sign-in page loads itself once more from the node and the page opens signed in.
        A browser without the cookie gets the form, and stays on it (no loop)."""
        link = f"{W.NODE.url}/alarms"
        server = W.serve_page(f'<!doctype html><title>elsewhere</title><a id="visit" href="{link}">Visit device</a>'.encode())
        elsewhere = f"http://localhost:{server.server_address[1]}/"
        fresh = None
        try:
            W.sign_in()  # signed in with ?token=: the cookie is set
            W.DRIVER.execute_script("sessionStorage.clear()")  # no earlier retry of this tab counts
            W.DRIVER.get(elsewhere)
            W.DRIVER.find_element(By.ID, "visit").click()
            W.wait_for(lambda: W.hooks("alarm-form"), timeout=10, what="the alarms page after the link")
            self.assertEqual(W.DRIVER.current_url, link)
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.alarms && NC.state.node)"), what="the signed-in state")
            # The way in was the sign-in page's one retry (the navigation really came without the cookie).
            self.assertTrue(W.DRIVER.execute_script("return sessionStorage.getItem('noiseclock-signin-retry:/alarms')"))
            self.assertEqual(W.DRIVER.find_elements(By.CSS_SELECTOR, "form input[name=token]"), [])
            # A fresh profile (no cookie), straight and through the link: the form, which stays.
            fresh = rig.browser()
            for how in ("straight", "the link"):
                if how == "straight":
                    fresh.get(link)
                else:
                    fresh.get(elsewhere)
                    fresh.find_element(By.ID, "visit").click()
                # Past the one retry: the sign-in script marks the page once it has decided to stay
                # (a page that loads itself again never does, so a loop times out here).
                W.wait_for(lambda: fresh.execute_script("return document.body && document.body.dataset.signinStays === 'true'"),
                           timeout=10, what=f"the login form to stay ({how})")
                form = fresh.find_elements(By.CSS_SELECTOR, "form input[name=token]")
                self.assertTrue(form and form[0].is_displayed(), f"no login form ({how})")
                self.assertEqual(fresh.current_url, link)
                self.assertEqual(fresh.find_elements(By.CSS_SELECTOR, '[data-nc="alarm-form"]'), [])
        finally:
            server.shutdown()
            server.server_close()
            if fresh:
                fresh.quit()


    def test_a_page_on_another_port_of_the_host_cannot_change_anything(self):
        """Issue 18's reproductions in Chromium, signed in: a page on another port of 127.0.0.1 (cookies
        are shared by every port and SameSite does not see ports) posts to the node with the cookie;
        the node answers 403 and nothing changes. A link carrying CRLF in the path sets no cookie and
        leaves the session as it was."""
        status, _ = W.api("/api/noise/volume/set", b"20")
        self.assertEqual(status, 200)
        script = f"""
            const node = {json.dumps(W.NODE.url)};
            Promise.allSettled([
                fetch(node + '/api/noise/volume/set', {{method: 'POST', body: '77', mode: 'no-cors', credentials: 'include'}}),
                fetch(node + '/api/alarm/add', {{method: 'POST', body: '{{"id": "csrf", "time": "06:00"}}', mode: 'no-cors', credentials: 'include'}}),
            ]).then(() => {{ document.title = 'done'; }});
        """
        server = W.serve_page(f"<!doctype html><title>attacker</title><script>{script}</script>".encode())
        try:
            W.sign_in()
            W.DRIVER.get(f"http://127.0.0.1:{server.server_address[1]}/")
            W.wait_for(lambda: W.DRIVER.title == "done", timeout=10, what="the attacker's two requests")
            status, body = W.api("/api/state")
            state = json.loads(body)
            self.assertEqual(state["noise"]["volume"], 20)
            self.assertEqual([a["id"] for a in state["alarms"] if a["id"] == "csrf"], [])
            # The header-injection link: 400, no cookie set, still signed in.
            W.DRIVER.get(f"{W.NODE.url}/%0d%0aSet-Cookie:%20pwned=1%0d%0aX-Injected:%20yes?token={W.NODE.token}")
            W.DRIVER.get(f"{W.NODE.url}/?token=x;%20Domain=example.com")
            names = [c["name"] for c in W.DRIVER.get_cookies()]
            self.assertNotIn("pwned", names)
            self.assertIn("noiseclock_session", names)
            self.assertEqual(W.DRIVER.execute_script("return document.cookie"), "")
            W.open_page("/alarms")
            W.wait_for(lambda: W.hooks("alarm-form"), what="the alarms page, still signed in")
        finally:
            server.shutdown()
            server.server_close()
            W.sign_in()


    def test_a_cookie_tossed_from_another_port_neither_loops_nor_throttles(self):
        """Issue 31, finding 4: a page on another port of the node's host sets
        `noiseclock_session=x; path=/api`. Chromium then sends it before the node's own cookie on every
        API request. The node tries every value, so the face keeps working, loads no page twice (its
        window is the one it opened with) and the address is not throttled."""
        script = """
            if (location.search === '?clear') document.cookie = 'noiseclock_session=; path=/api; max-age=0';
            else document.cookie = 'noiseclock_session=x; path=/api; max-age=600';
            document.title = 'done';
        """
        server = W.serve_page(f"<!doctype html><title>tosser</title><script>{script}</script>".encode())
        tosser = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            W.sign_in()
            W.DRIVER.get(tosser)
            W.wait_for(lambda: W.DRIVER.title == "done", what="the tossed cookie")
            W.open_page("/")
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.style)"), what="the signed-in state")
            W.DRIVER.execute_script("window.ncSamePage = true;")
            # The stream works too: a change over MQTT reaches the face.
            W.NODE.publish("style/set", json.dumps({"digit_color": "#00AAFF"}))
            W.wait_for(lambda: W.colour_of('[data-nc="time"]') == W.rgb("#00AAFF"), what="a change through the event stream")
            reply = W.DRIVER.execute_async_script("NC.post('noise/volume/set', '20').then(arguments[arguments.length - 1]);")
            self.assertTrue(reply["ok"], reply)
            self.assertTrue(W.DRIVER.execute_script("return window.ncSamePage === true"), "the page reloaded")
            self.assertEqual(W.DRIVER.execute_script("return performance.getEntriesByType('navigation')[0].type"), "navigate")
            self.assertEqual(W.api("/api/state")[0], 200)  # this address (127.0.0.1) is not throttled
        finally:
            W.set_style(W.DEFAULT_STYLE)
            W.DRIVER.get(tosser + "?clear")
            server.shutdown()
            server.server_close()
            W.sign_in()

    def test_a_401_from_the_api_shows_the_sign_in_form_in_place(self):
        """The page was let in but the API answers 401 (the session cookie gone): the app shows the
        sign-in form in place instead of reloading (a reload is a wrong guess each time, and loops
        while the page itself is let in). Signing in there opens the page again."""
        try:
            W.open_page("/alarms")
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.node && NC.state.alarms)"), what="the signed-in state")
            W.DRIVER.execute_script("window.ncSamePage = true;")
            W.DRIVER.delete_cookie("noiseclock_session")
            reply = W.DRIVER.execute_async_script("NC.post('noise/volume/set', '20').then(arguments[arguments.length - 1]);")
            self.assertEqual(reply["error"]["code"], "unauthorized")
            form = W.wait_for(lambda: W.hooks("login-form"), what="the sign-in form")
            self.assertTrue(W.DRIVER.execute_script("return window.ncSamePage === true"), "the page reloaded")
            self.assertEqual(W.hooks("alarm-form"), [])
            self.assertEqual(W.DRIVER.execute_script("return document.body.dataset.signin"), "ask")
            form[0].find_element(By.CSS_SELECTOR, "input[name=token]").send_keys(W.NODE.token)
            form[0].find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            W.wait_for(lambda: W.hooks("alarm-form"), timeout=10, what="the alarms page after signing in")
            self.assertEqual(W.DRIVER.current_url, f"{W.NODE.url}/alarms")
            self.assertIn("noiseclock_session", [c["name"] for c in W.DRIVER.get_cookies()])
        finally:
            W.sign_in()
