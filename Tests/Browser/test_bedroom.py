"""The bedroom (v1.2) on the web face: an "OK to wake" pair of routines changes the digits and
the face's lamp background at their times, on the node's clock (the test clock), and the
user's style comes back after. Runs in test_web's browser against test_web's node."""
import json
import unittest

import test_web as W

STAY = {"id": "okw_stay", "label": "Stay in bed", "start": "19:30", "end": "06:59", "sound": "none", "fade_in_seconds": 0,
        "light": {"brightness": 5, "color": "#FF2000"}, "face": {"digit_color": "#FF2000"}}
OK = {"id": "okw_ok", "label": "OK to wake", "start": "07:00", "end": "07:30", "sound": "none", "fade_in_seconds": 0,
      "light": {"brightness": 40, "color": "#20FF40"}, "face": {"digit_color": "#20FF40"}}


def lamp(hex_colour, brightness):
    """The face's lamp colour: the light's colour at its brightness, as face.js computes it."""
    v = hex_colour.lstrip("#")
    return "rgb(" + ", ".join(str(round(int(v[i:i + 2], 16) * brightness / 100)) for i in (0, 2, 4)) + ")"


class I_Bedroom(unittest.TestCase):
    def test_an_ok_to_wake_pair_changes_digits_and_lamp_at_their_times_and_restores_the_style(self):
        W.set_style({"digit_color": "#FFFFFF", "background_color": "#000000", "random_color": False, "face_light": True})
        routines = W.NODE.subscribe("routines")
        try:
            for routine in (STAY, OK):
                W.NODE.publish("routine/add", json.dumps(routine))
            routines.json(lambda r: {x["id"] for x in r} >= {"okw_stay", "okw_ok"})
            W.open_page("/", 800, 480)
            digits = lambda: W.colour_of('[data-nc="time"]')  # noqa: E731
            background = lambda: W.colour_of("[data-lamp]", "backgroundColor")  # noqa: E731
            W.wait_for(lambda: digits() == W.rgb("#FFFFFF"), what="white digits before")

            # 19:30: stay in bed, red digits and a dim red lamp.
            W.NODE.set_clock(W.next_boundary_clock(19, 30))
            W.wait_for(lambda: digits() == W.rgb("#FF2000"), timeout=8, what="red digits at 19:30")
            W.wait_for(lambda: background() == lamp("#FF2000", 5), what="the dim red lamp")
            # 06:59 the next morning: the style is the user's again, the lamp off.
            W.NODE.set_clock(W.next_boundary_clock(6, 59) + 86400)
            W.wait_for(lambda: digits() == W.rgb("#FFFFFF"), timeout=8, what="white digits at 06:59")
            W.wait_for(lambda: background() == W.rgb("#000000"), what="the lamp off at 06:59")
            # 07:00: OK to wake, green.
            W.NODE.set_clock(W.next_boundary_clock(7, 0) + 86400)
            W.wait_for(lambda: digits() == W.rgb("#20FF40"), timeout=8, what="green digits at 07:00")
            W.wait_for(lambda: background() == lamp("#20FF40", 40), what="the green lamp")
            # face_light off: the background is the style's again, the digits stay the routine's.
            W.set_style({"face_light": False})
            W.wait_for(lambda: background() == W.rgb("#000000"), what="no lamp with face_light off")
            self.assertEqual(digits(), W.rgb("#20FF40"))
            W.set_style({"face_light": True})
            # 07:30: over, restored.
            W.NODE.set_clock(W.next_boundary_clock(7, 30) + 86400)
            W.wait_for(lambda: digits() == W.rgb("#FFFFFF"), timeout=8, what="white digits after 07:30")
            W.wait_for(lambda: background() == W.rgb("#000000"), what="the lamp off after 07:30")
            style = json.loads(W.NODE.retained("style"))
            self.assertEqual(style["digit_color"], "#FFFFFF")
        finally:
            for routine in (STAY, OK):
                W.NODE.publish("routine/delete", routine["id"])
            routines.stop()
