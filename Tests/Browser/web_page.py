"""Reading and driving the page for the browser tests: elements by their hooks, pages opened (and their
event stream counted), another site's page, the API, screenshots and colours. test_web re-exports them, so the
test files call them as W.css, W.open_page... (the node and the browser are test_web's, read at call time)."""
import http.server
import json
import os
import threading
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

import rig
import test_web as W


def css(selector):
    return W.DRIVER.find_element(By.CSS_SELECTOR, selector)


def hook(name):
    return W.DRIVER.find_element(By.CSS_SELECTOR, f'[data-nc="{name}"]')


def hooks(name):
    return W.DRIVER.find_elements(By.CSS_SELECTOR, f'[data-nc="{name}"]')


def face_text():
    """The time as the browser renders it for a reader (Selenium's visible text, not textContent)."""
    return hook("time").text


def open_page(path, width=800, height=480):
    W.DRIVER.get_log("browser")  # forget what earlier pages logged
    rig.set_viewport(W.DRIVER, width, height)
    W.DRIVER.get(W.NODE.url + path)
    W.wait_for(lambda: W.DRIVER.execute_script("return document.readyState") == "complete", what=f"{path} to load")


# Counts what the page's event stream delivers per topic (window.NCStreamed), installed before the
# page's own scripts run: the stream's snapshot comes after /api/state's, so a value a test puts
# into the page before then is overwritten by the node's.
STREAM_COUNTER = """(() => {
  const Real = window.EventSource;
  if (!Real || Real.counted) return;
  window.NCStreamed = {};
  class Counted extends Real {
    constructor(...args) {
      super(...args);
      for (const topic of %s) this.addEventListener(topic, () => { NCStreamed[topic] = (NCStreamed[topic] || 0) + 1; });
    }
  }
  Counted.counted = true;
  window.EventSource = Counted;
})();"""


def open_page_streamed(path, topic, width=800, height=480):
    """open_page, then wait until the page's event stream has delivered `topic` (its snapshot)."""
    script = W.DRIVER.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STREAM_COUNTER % json.dumps([topic])})
    try:
        open_page(path, width, height)
    finally:
        W.DRIVER.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    W.wait_for(lambda: W.DRIVER.execute_script("return (window.NCStreamed || {})[arguments[0]] || 0", topic),
               what=f"{path}'s event stream to deliver {topic}")


def serve_page(page, content_type="text/html; charset=utf-8"):
    """Another site on this machine: an HTTP server on a port of its own that answers every GET with
    `page` (bytes; HTML unless `content_type` says otherwise). The caller shuts it down and closes it."""
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def translations(key):
    """NC.t(key) in English and in Korean, on the page open now."""
    return W.DRIVER.execute_script(
        "const k = arguments[0]; const saved = NC.state.node;"
        "NC.state.node = {locale: 'en'}; const en = NC.t(k); NC.state.node = {locale: 'ko'}; const ko = NC.t(k);"
        "NC.state.node = saved; return [en, ko];", key)


def set_style(style, timeout=5.0):
    """style/set over MQTT, and wait until ~/style carries it."""
    sub = W.NODE.subscribe("style")
    W.NODE.publish("style/set", json.dumps(style))
    sub.json(lambda s: all(s.get(k) == v for k, v in style.items() if k != "digit_color" or not s.get("random_color")), timeout)
    sub.stop()


def api(path, body=None, token=True):
    request = urllib.request.Request(W.NODE.url + path, data=body)
    if token:
        request.add_header("Authorization", f"Bearer {W.NODE.token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def next_boundary_clock(hour, minute, seconds_before=2.0):
    """Epoch seconds a little before hour:minute UTC tomorrow."""
    day = int(time.time()) // 86400 + 1
    return day * 86400 + hour * 3600 + minute * 60 - seconds_before


def shot(name, width, height):
    if not W.SHOTS:
        return
    os.makedirs(W.SHOTS, exist_ok=True)
    rig.set_viewport(W.DRIVER, width, height)
    settled()  # the face refits on resize, its colours fade
    W.DRIVER.save_screenshot(os.path.join(W.SHOTS, name))


SETTLED = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() =>
  done((window.__ncFetching || 0) === 0 && document.getAnimations().every((a) => a.playState !== 'running'))));
"""


def settled(timeout=5.0, what="the page settled"):
    """Waits until the page has drawn two frames with no request in flight (rig.FETCH_TRACKER) and
    no transition running: what it fetched after its state is drawn and its colours are final."""
    W.wait_for(lambda: W.DRIVER.execute_async_script(SETTLED), timeout=timeout, what=what)


def colour_of(selector, prop="color"):
    """The computed colour as the browser gives it (Selenium's own normalises to rgba)."""
    return W.DRIVER.execute_script(f"return getComputedStyle(document.querySelector(arguments[0])).{prop}", selector)


def rgb(hex_colour):
    v = hex_colour.lstrip("#")
    return f"rgb({int(v[0:2], 16)}, {int(v[2:4], 16)}, {int(v[4:6], 16)})"
