"""The pages on a phone: labels and 44 px targets, the device page's sounds, no sound output said, the alarm
form and the top bar at 390 and 320 px, the noise and style pages (run by test_web, with its node and browser)."""
import json
import unittest

from selenium.webdriver.common.by import By

import test_web as W


class D_Settings(unittest.TestCase):
    PAGES = ("/alarms", "/noise", "/radio", "/style", "/device", "/routines", "/timers", "/settings", "/setup")

    def test_every_control_has_a_label_and_a_44px_target_on_a_phone(self):
        script = """
          const problems = [];
          for (const e of document.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href], summary')) {
            const box = e.getBoundingClientRect();
            if (!box.width && !e.closest('label')) continue;            // not shown
            const label = e.labels && e.labels.length ? e.labels[0].textContent.trim() : '';
            // aria-labelledby names it too (the settings page's switches: their row's name).
            const by = (e.getAttribute('aria-labelledby') || '').split(' ').map((id) => document.getElementById(id)).filter(Boolean)
              .map((l) => l.textContent.trim()).join(' ');
            const name = label || e.getAttribute('aria-label') || by || e.textContent.trim() || e.title;
            if (!name) problems.push('no label: ' + e.outerHTML.slice(0, 80));
            const target = (e.closest('label') || e).getBoundingClientRect();
            if (target.width && target.height < 43.5) problems.push('small target ' + Math.round(target.height) + 'px: ' + e.outerHTML.slice(0, 80));
          }
          return problems;"""
        W.NODE.publish("alarm/add", json.dumps({"id": "a11y", "time": "08:00", "repeat": "daily", "label": "Rows too"}))
        # Deleted even when a page fails: left on the shared node, it is the next alarm of later classes (K_FaceLayout).
        self.addCleanup(W.NODE.publish, "alarm/delete", "a11y")
        for path in self.PAGES:
            W.open_page(path, 390, 844)
            if path == "/alarms":
                W.wait_for(lambda: W.hooks("alarm-row"), what="a row to check")
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.style && NC.state.node)"), what=f"{path}'s state")
            W.settled(what=f"{path} drawn")
            W.DRIVER.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
            self.assertEqual(W.DRIVER.execute_script(script), [], path)
            errors = [entry for entry in W.DRIVER.get_log("browser") if entry["level"] == "SEVERE"]
            self.assertEqual(errors, [], path)

    def test_the_device_page_lists_each_custom_sound_with_its_length_and_format(self):
        """~/sounds as the node publishes it for a sounds_dir (the test node has none): each custom
        file's name, length and format, following the topic live; the built-in sounds are not listed."""
        # After the stream's own ~/sounds: arriving later, it would replace the one put here (seen under make test's load).
        W.open_page_streamed("/device", "sounds")
        W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.sounds && NC.state.node)"), what="the device's state")
        listed = lambda: W.DRIVER.find_element(By.ID, "custom_sounds").text
        W.wait_for(lambda: "choose a folder of your own sounds in Settings" in listed(), what="the empty list's hint")
        rain = {"id": "rain_night", "name": "Rain night", "category": "custom", "seconds": 3725.4, "format": "FLAC (Signed 16 bit PCM)"}
        W.DRIVER.execute_script("NC.put('sounds', {noise: NC.state.sounds.noise.concat([arguments[0]]), alarm: NC.state.sounds.alarm})", rain)
        W.wait_for(lambda: "Rain night" in listed(), what="the custom sound")
        self.assertIn("1:02:05 · FLAC (Signed 16 bit PCM)", listed())
        self.assertNotIn("Brown", listed())
        W.DRIVER.execute_script("NC.put('sounds', {noise: NC.state.sounds.noise.filter(x => x.category !== 'custom'), alarm: NC.state.sounds.alarm})")
        W.wait_for(lambda: "Rain night" not in listed(), what="the removed sound to go")

    def test_no_sound_output_is_said_on_the_noise_and_alarms_pages(self):
        """The notice shows exactly while ~/audio is unavailable (the test node's device does not exist)."""
        status, body = W.api("/api/state")
        audio = json.loads(body)["audio"]
        W.MEASURED["the test node's audio"] = f"{audio['status']} ({audio.get('error')})"
        unavailable = audio["status"] == "unavailable"
        for path in ("/noise", "/alarms"):
            W.open_page(path, 390, 844)
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.audio && NC.state.node)"), what=f"{path}'s state")
            notice = W.DRIVER.find_element(By.ID, "audio-notice")
            self.assertEqual(notice.is_displayed(), unavailable, path)
            if unavailable:
                self.assertIn("No sound output", notice.text)
                if audio.get("error"):  # the raw error behind "Details" (issue 41)
                    self.assertIn(audio["error"], notice.find_element(By.TAG_NAME, "details").get_attribute("textContent"))
                self.assertEqual(notice.find_element(By.TAG_NAME, "a").get_attribute("pathname"), "/settings")
            # The page follows ~/audio both ways.
            W.DRIVER.execute_script("NC.put('audio', {device: 'x', status: 'ok', error: null})")
            W.wait_for(lambda: not notice.is_displayed(), what="the notice hiding with audio ok")
            W.DRIVER.execute_script("NC.put('audio', {device: 'x', status: 'unavailable', error: 'no such device'})")
            W.wait_for(lambda: notice.is_displayed() and "No sound output: nothing the clock plays can be heard." in notice.text
                       and "x: no such device" in notice.find_element(By.TAG_NAME, "details").get_attribute("textContent"),
                       what="the notice with audio unavailable")

    def test_the_alarm_form_fits_a_390px_phone(self):
        W.open_page("/alarms", 390, 844)
        form = W.wait_for(lambda: W.hook("alarm-form"), what="the alarm form")
        W.DRIVER.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
        problems = W.DRIVER.execute_script("""
          const form = arguments[0], card = form.getBoundingClientRect(), cs = getComputedStyle(form);
          const left = card.left + parseFloat(cs.borderLeftWidth), right = card.right - parseFloat(cs.borderRightWidth);
          const out = [];
          for (const e of form.querySelectorAll('input:not([type=hidden]), select, button, label, .days span')) {
            const r = e.getBoundingClientRect();
            if (!r.width) continue;
            if (r.left < left - .5 || r.right > right + .5) out.push('outside the card: ' + e.outerHTML.slice(0, 60));
            if (e.scrollWidth > e.clientWidth + 1 && e.tagName !== 'SELECT') out.push('clipped: ' + e.outerHTML.slice(0, 60));
          }
          if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
          return out;""", form)
        self.assertEqual(problems, [])
        # The time shows whole ("07:00", the node's 24-hour style): no narrower than the field's own width for its text.
        fits = W.DRIVER.execute_script("""
          const i = arguments[0], probe = i.cloneNode();
          probe.removeAttribute('id'); probe.style.width = 'auto'; probe.style.minWidth = '0'; probe.style.alignSelf = 'flex-start';
          i.after(probe); const need = probe.getBoundingClientRect().width; probe.remove();
          return [need, i.getBoundingClientRect().width];""", form.find_element(By.NAME, "time"))
        W.MEASURED["the alarm form's time field at 390 px (needs, has)"] = f"{fits[0]:.0f} px, {fits[1]:.0f} px"
        self.assertLessEqual(fits[0], fits[1] + 0.5, "the time field is too narrow for its text")
        # Time and label: one height.
        heights = [form.find_element(By.NAME, n).rect["height"] for n in ("time", "label")]
        self.assertAlmostEqual(heights[0], heights[1], delta=0.5)
        # The seven day chips on one row.
        tops = {round(c.rect["y"]) for c in form.find_elements(By.CSS_SELECTOR, ".days span")}
        self.assertEqual(len(form.find_elements(By.CSS_SELECTOR, ".days span")), 7)
        self.assertEqual(len(tops), 1, f"the day chips are on {len(tops)} rows")

    def test_the_top_bar_fits_320px(self):
        for path in self.PAGES:
            W.open_page(path, 320, 640)
            links = W.wait_for(lambda: W.DRIVER.find_elements(By.CSS_SELECTOR, ".topbar a"), what="the top bar")
            self.assertEqual(len(links), 9)  # v1.1: Routines and Timers too; v1.3: Settings and Radio
            problems = W.DRIVER.execute_script("""
              const out = [], nav = document.querySelector('.topbar nav');
              if (nav.scrollWidth > nav.clientWidth) out.push('the bar scrolls');
              for (const a of nav.querySelectorAll('a')) {
                const r = a.getBoundingClientRect();
                if (r.left < 0 || r.right > innerWidth + .5) out.push('off screen: ' + a.textContent);
                if (a.scrollWidth > a.clientWidth) out.push('clipped: ' + a.textContent);
              }
              return out;""")
            self.assertEqual(problems, [], path)
            tops = {round(a.rect["y"]) for a in links}
            self.assertLessEqual(len(tops), 2, f"{path}: the links are on {len(tops)} rows")

    def test_noise_page_plays_and_sets_the_volume(self):
        W.open_page("/noise", 390, 844)
        sub = W.NODE.subscribe("noise")
        try:
            toggle = W.wait_for(lambda: W.DRIVER.find_element(By.ID, "toggle"), what="the play button")
            W.wait_for(lambda: toggle.text == "Play", what="Play")
            toggle.click()
            _, noise = sub.json(lambda n: n["playing"] is True, timeout=5)
            W.wait_for(lambda: toggle.text == "Stop", what="Stop")
            # v1.4: on a node whose sound device does not play, neither ~/noise nor the page says "Playing".
            _, body = W.api("/api/state")
            if json.loads(body)["audio"]["status"] == "unavailable":
                self.assertTrue((noise.get("error") or "").startswith("audio_unavailable: "), noise)
                W.wait_for(lambda: "not heard" in W.DRIVER.find_element(By.ID, "status").text, what="'not heard'")
            else:
                W.wait_for(lambda: W.DRIVER.find_element(By.ID, "status").text == "Playing", what="'Playing'")
            W.DRIVER.find_element(By.CSS_SELECTOR, "#sounds input[value=rain]").find_element(By.XPATH, "..").click()
            sub.json(lambda n: n["sound"] == "rain", timeout=5)
            W.DRIVER.execute_script(
                "const v = document.getElementById('volume'); v.value = 25; v.dispatchEvent(new Event('change', {bubbles: true}))")
            sub.json(lambda n: n["volume"] == 25, timeout=5)
            toggle.click()
            sub.json(lambda n: n["playing"] is False, timeout=5)
        finally:
            sub.stop()

    def test_style_page_sets_a_field_and_warns_of_low_contrast_live(self):
        W.open_page("/style", 390, 844)
        try:
            W.wait_for(lambda: W.DRIVER.find_element(By.ID, "contrast").text == "Contrast 21:1", what="21:1")
            sub = W.NODE.subscribe("style")
            # A colour picked: the ratio and the warning follow before anything is sent.
            W.DRIVER.execute_script("const c = document.querySelector('[name=digit_color]'); c.value = '#777777';"
                                    "c.dispatchEvent(new Event('input', {bubbles: true}))")
            W.NODE.publish("style/set", json.dumps({"background_color": "#FFFFFF"}))
            W.wait_for(lambda: W.DRIVER.find_element(By.ID, "contrast").text == "Contrast 4.48:1", what="4.48:1")
            self.assertIn("4.5", W.DRIVER.find_element(By.ID, "contrast-note").text)
            W.DRIVER.execute_script("document.querySelector('[name=digit_color]').dispatchEvent(new Event('change', {bubbles: true}))")
            _, style = sub.json(lambda s: s["digit_color"] == "#777777", timeout=5)
            self.assertEqual(style["contrast_ratio"], 4.48)
            # A switch is a click away.
            W.DRIVER.find_element(By.CSS_SELECTOR, "[name=show_seconds]").find_element(By.XPATH, "./ancestor::label").click()
            sub.json(lambda s: s["show_seconds"] is True, timeout=5)
            sub.stop()
        finally:
            W.set_style(W.DEFAULT_STYLE)
