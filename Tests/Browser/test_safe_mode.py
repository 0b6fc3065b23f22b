"""Safe mode on the face (mqtt-api v1.4): a node of its own, made to crash at its first two starts
(the test-only NOISECLOCK_TEST_CRASH_AT_START), is in safe mode at its third; the face's readiness
line says "Safe mode", its codes name safe_mode and its title the node's words. Uses test_web's
browser, signed in to this node and back to test_web's afterwards."""
import os
import subprocess
import tempfile
import unittest

from selenium.webdriver.common.by import By

import rig
import test_web as W


class P_SafeMode(unittest.TestCase):
    def test_the_face_says_the_node_runs_in_safe_mode(self):
        with tempfile.TemporaryDirectory(prefix="noiseclock-safe-") as directory:
            node = rig.Node(W.NODE.binary, directory, W.BROKER.port, node_id="safetest")
            # Set up already: a node with no sound and no alarm would open the first-start wizard (v1.4), not the face.
            os.makedirs(node.state_dir, exist_ok=True)
            with open(os.path.join(node.state_dir, "settings.json"), "w") as f:
                f.write('{"version": 1, "values": {}, "setup_done": true}\n')
            env = {k: v for k, v in os.environ.items() if not k.startswith("NOISECLOCK_")}
            env.update({"NOISECLOCK_RESOURCES": os.path.join(rig.ROOT, "Resources"), "NOISECLOCK_TEST_CLOCK_FILE": node.clock_file,
                        "NOISECLOCK_TEST_CRASH_AT_START": "1"})
            for start in (1, 2):
                crashed = subprocess.run([node.binary, "--config", node.config], env=env, stdout=node.log,
                                         stderr=subprocess.STDOUT, timeout=60)
                self.assertNotEqual(crashed.returncode, 0, f"crashing start {start}")
            node.start()
            try:
                W.DRIVER.get(f"{node.url}/?token={node.token}")
                W.wait_for(lambda: W.DRIVER.find_element(By.ID, "ready-warning").is_displayed(), timeout=10,
                           what="the readiness line")
                warning = W.DRIVER.find_element(By.ID, "ready-warning")
                W.wait_for(lambda: warning.text.startswith("Safe mode"), what="the line saying safe mode")
                self.assertIn("safe_mode", warning.get_attribute("data-codes"))
                self.assertIn("crashed at 2 starts in a row", warning.get_attribute("title"))
            finally:
                node.stop()
                W.sign_in()
