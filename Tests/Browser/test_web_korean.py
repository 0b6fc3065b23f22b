"""The face and pages in Korean (run by test_web, with its node and browser)."""
import json
import os
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W


class E_Korean(unittest.TestCase):
    def test_a_korean_node_s_pages_speak_korean(self):
        """A second node (locale: ko, Asia/Seoul) on the same broker: its pages and its face. It plays
        into ALSA's null device, so it can speak (a node without sound refuses to: audio_unavailable)."""
        node = rig.Node(W.NODE.binary, os.path.join(W.TMP.name, "ko"), W.BROKER.port, node_id="webtest_ko",
                        locale="ko", timezone="Asia/Seoul", audio_device="null")
        node.start()
        try:
            W.DRIVER.get(f"{node.url}/alarms?token={node.token}")
            W.wait_for(lambda: W.DRIVER.execute_script("return document.documentElement.lang") == "ko", what="lang=ko")
            self.assertEqual(W.DRIVER.find_element(By.CSS_SELECTOR, "h1").text, "알람")
            self.assertEqual(W.DRIVER.find_element(By.CSS_SELECTOR, "[type=submit]").text, "알람 추가")
            notice = W.wait_for(lambda: W.DRIVER.find_element(By.ID, "audio-notice"), what="the audio notice")
            # This node's device opens; the notice, in Korean, as the page shows it for a node without sound.
            W.wait_for(lambda: W.DRIVER.execute_script("return !!(NC.state.audio && NC.state.node)"), what="the node's state")
            W.DRIVER.execute_script("NC.put('audio', {device: 'default', status: 'unavailable', error: 'cannot open default'})")
            W.wait_for(lambda: "소리 출력 없음" in notice.text and "스피커 고르기" in notice.text, what="the notice in Korean")
            # A node without buttons (v1.2) says so on its device page, and offers no learn mode.
            W.DRIVER.get(node.url + "/device")
            W.wait_for(lambda: W.hooks("no-buttons") and W.hook("no-buttons").text.startswith("버튼이 없습니다"), what="no buttons, in Korean")
            self.assertEqual(W.hooks("button-row"), [])
            self.assertFalse(W.DRIVER.find_element(By.ID, "learn").is_displayed())
            node.publish("style/set", json.dumps({"use_24_hour": False}))
            sub = node.subscribe("time")
            node.set_clock(W.next_boundary_clock(22, 30, 1.5))  # 07:30 in Seoul (UTC+9)
            W.DRIVER.get(node.url + "/")
            _, payload = sub.json(lambda t: t["display"] == "7:30", timeout=8)
            sub.stop()
            self.assertEqual(payload["ampm"], "오전")
            W.wait_for(lambda: W.face_text() == "7:30" and W.hooks("ampm") and W.hooks("ampm")[0].text == "오전",
                       what="7:30 오전 on the Korean face")
            # "Speak the time" (v1.2) in Korean: its name, and the node's Korean phrase for the face's time.
            speak = W.hook("speak-time")
            self.assertEqual(speak.get_attribute("aria-label"), "시간 말하기")
            W.DRIVER.execute_script("arguments[0].click()", speak)
            spoken = W.wait_for(lambda: W.hook("spoken").is_displayed() and W.hook("spoken").text, timeout=8, what="the Korean time said")
            self.assertRegex(spoken, r"^오전 7시 30분, [월화수목금토일]요일$")
            self.assertEqual(W.hook("date").text, payload["date"])
        finally:
            node.stop()
            W.sign_in()
