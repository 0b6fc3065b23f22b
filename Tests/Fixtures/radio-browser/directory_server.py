#!/usr/bin/env python3
"""A Radio Browser stand-in on loopback for the station directory's tests (issue 41, item 4).

    directory_server.py PORT

Answers as Radio Browser documents its API (https://api.radio-browser.info, "json" format):
  /json/stations/search?name=&countrycode=&tag=&limit=&hidebroken=&order=votes&reverse=true
                             a JSON array of station objects (stationuuid, name, url, url_resolved,
                             homepage, favicon, tags as one comma-separated string, country,
                             countrycode, codec, bitrate, votes, lastcheckok, ...): name and tag
                             match anywhere, case-insensitively; countrycode exactly; broken
                             stations (lastcheckok 0) left out with hidebroken=true; ordered by votes
  /json/stations/byuuid/<id> a JSON array with that station (empty when unknown)
  /json/url/<id>             {"ok": true, "message": "retrieved station url", "stationuuid", "name",
                             "url"}, counting a click for the station
And for the tests, never by a node:
  /stream/<name>.mp3         a station that plays: tone-44100.mp3's frames looped (a live stream)
  /gone/<name>.mp3           404: a station that moved away
  /control/silent?on=1|0     from now, every /json request is read and never answered (or answered again)
  /control/move?id=&url=     the station's url and url_resolved become url
  /control/stats             {"searches", "byuuid", "clicks": {id: n}, "user_agents": [...], "last_search": {...}}
Every station's address is on this server (http://127.0.0.1:PORT/...). Made for the tests only.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
TONE = os.path.join(HERE, "..", "hostile-stream", "tone-44100.mp3")
PORT = int(sys.argv[1])
BASE = "http://127.0.0.1:%d" % PORT
lock = threading.Lock()
silent = threading.Event()
stats = {"searches": 0, "byuuid": 0, "clicks": {}, "user_agents": [], "last_search": {}}


def station(uuid, name, path, codec, bitrate, country, countrycode, tags, votes, ok=1):
    url = BASE + path
    return {
        "changeuuid": "c" + uuid[1:], "stationuuid": uuid, "serveruuid": None, "name": name, "url": url, "url_resolved": url,
        "homepage": BASE + "/home/" + uuid[:8], "favicon": "", "tags": tags, "country": country, "countrycode": countrycode,
        "iso_3166_2": None, "state": "", "language": "", "languagecodes": "", "votes": votes,
        "lastchangetime": "2026-01-01 00:00:00", "lastchangetime_iso8601": "2026-01-01T00:00:00Z", "codec": codec,
        "bitrate": bitrate, "hls": 0, "lastcheckok": ok, "lastchecktime": "2026-11-29 00:00:00",
        "lastchecktime_iso8601": "2026-11-29T00:00:00Z", "lastcheckoktime": "2026-11-29 00:00:00",
        "lastcheckoktime_iso8601": "2026-11-29T00:00:00Z", "lastlocalchecktime": "", "lastlocalchecktime_iso8601": None,
        "clicktimestamp": "", "clicktimestamp_iso8601": None, "clickcount": 0, "clicktrend": 0, "ssl_error": 0,
        "geo_lat": None, "geo_long": None, "has_extended_info": False,
    }


STATIONS = [
    station("96062a7b-0601-11e8-ae97-52543be04c81", "Swiss Jazz Test", "/stream/jazz.mp3", "MP3", 128, "Switzerland", "CH",
            "jazz,smooth jazz,swiss", 9000),
    station("a1b2c3d4-0601-11e8-ae97-52543be04c81", "Jazz Night Test", "/stream/night.mp3", "MP3", 64, "Germany", "DE",
            "jazz,night", 7000),
    station("b2c3d4e5-0601-11e8-ae97-52543be04c81", "KBS Classic Test", "/stream/classic.mp3", "MP3", 128, "The Republic Of Korea",
            "KR", "classical,korean", 8000),
    station("c3d4e5f6-0601-11e8-ae97-52543be04c81", "Broken Jazz Test", "/gone/broken.mp3", "MP3", 128, "Germany", "DE", "jazz", 9999,
            ok=0),
    station("d4e5f6a7-0601-11e8-ae97-52543be04c81", "Moving Jazz Test", "/gone/moving.mp3", "MP3", 128, "France", "FR", "jazz", 100),
]
# A station a hostile or sloppy directory could list: not a playable address, a control character in its name.
STATIONS.append(dict(station("e5f6a7b8-0601-11e8-ae97-52543be04c81", "Jazz\u0007 File Test", "/x", "MP3", -5, "", "XYZ", "", 1),
                     url="file:///etc/passwd", url_resolved="file:///etc/passwd"))


def find(uuid):
    return next((s for s in STATIONS if s["stationuuid"] == uuid), None)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        path = parts.path
        if path.startswith("/control/"):
            return self.control(path, query)
        if path.startswith("/stream/"):
            return self.stream()
        if path.startswith("/json/"):
            with lock:
                stats["user_agents"].append(self.headers.get("User-Agent", ""))
            if silent.is_set():
                # Read, never answered: the directory is silent (held until the client gives up).
                while silent.is_set():
                    time.sleep(0.05)
                return
            return self.api(path, query)
        self.answer(404, {"error": "not found"})

    def api(self, path, query):
        if path == "/json/stations/search":
            with lock:
                stats["searches"] += 1
                stats["last_search"] = query
            name = query.get("name", "").lower()
            tag = query.get("tag", "").lower()
            country = query.get("countrycode", "").upper()
            found = [s for s in STATIONS if name in s["name"].lower() and tag in s["tags"].lower()
                     and (not country or s["countrycode"] == country)
                     and not (query.get("hidebroken") == "true" and s["lastcheckok"] == 0)]
            if query.get("order") == "votes":
                found.sort(key=lambda s: s["votes"], reverse=query.get("reverse") == "true")
            limit = int(query.get("limit", "100000") or "100000")
            return self.answer(200, found[:limit])
        if path.startswith("/json/stations/byuuid/"):
            with lock:
                stats["byuuid"] += 1
            found = find(path.rsplit("/", 1)[1])
            return self.answer(200, [found] if found else [])
        if path.startswith("/json/url/"):
            uuid = path.rsplit("/", 1)[1]
            found = find(uuid)
            if not found:
                return self.answer(200, {"ok": False, "message": "did not find station with matching uuid", "stationuuid": uuid,
                                         "name": "", "url": ""})
            with lock:
                stats["clicks"][uuid] = stats["clicks"].get(uuid, 0) + 1
            return self.answer(200, {"ok": True, "message": "retrieved station url", "stationuuid": uuid, "name": found["name"],
                                     "url": found["url_resolved"]})
        self.answer(404, {"error": "not found"})

    def control(self, path, query):
        if path == "/control/silent":
            (silent.set if query.get("on") == "1" else silent.clear)()
            return self.answer(200, {"silent": silent.is_set()})
        if path == "/control/move":
            found = find(query.get("id", ""))
            if not found:
                return self.answer(404, {"error": "no such station"})
            found["url"] = found["url_resolved"] = query["url"]
            return self.answer(200, found)
        if path == "/control/stats":
            with lock:
                return self.answer(200, stats)
        self.answer(404, {"error": "not found"})

    def stream(self):
        with open(TONE, "rb") as f:
            tone = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            # About real time (the tone is 32 kb/s, 2 s): a probe hears its second at once, a player is not flooded.
            while True:
                self.wfile.write(tone)
                time.sleep(len(tone) / 4500)
        except (BrokenPipeError, ConnectionResetError):
            pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    server.daemon_threads = True
    server.serve_forever()
