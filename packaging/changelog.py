#!/usr/bin/env python3
"""Writes debian/changelog's entry for VERSION from CHANGELOG.md (the section headed `## 1.3.0`,
`## [1.3.0]` or `## v1.3.0 ...`): its bullets, wrapped for Debian (80 columns at most).
    changelog.py VERSION CHANGELOG.md EPOCH_SECONDS MAINTAINER > debian/changelog
A version without a section (or no CHANGELOG.md) gets one line saying so."""
import os
import re
import sys
import textwrap
import time


def section(path, version):
    """The bullets under the version's heading, each joined onto one line."""
    if not os.path.exists(path):
        return None
    heading = re.compile(r"^(#+)\s*\[?v?" + re.escape(version) + r"\]?(\s|$|\))")
    bullets, level = [], None
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.rstrip("\n")
            if level is None:
                match = heading.match(line)
                if match:
                    level = len(match.group(1))
                continue
            other = re.match(r"^(#+)\s", line)
            if other and len(other.group(1)) <= level:
                break
            text = line.strip()
            if re.match(r"^[-*+]\s+", text):
                bullets.append(re.sub(r"^[-*+]\s+", "", text))
            elif text and bullets and not other:
                bullets[-1] += " " + text
            elif other:
                bullets.append(line.lstrip("#").strip() + ":")
    return bullets if level is not None else None


def main():
    version, path, epoch, maintainer = sys.argv[1:5]
    bullets = section(path, version)
    if not bullets:
        base = re.sub(r"[+~].*$", "", version)
        bullets = section(path, base) if base != version else None
        note = f"NoiseClock {version}." if bullets is None else f"NoiseClock {version}, built from {base}:"
        bullets = [note + (" (CHANGELOG.md has no section for it: see the git history.)" if bullets is None else "")] + (bullets or [])
    print(f"noiseclock ({version}) bookworm; urgency=medium\n")
    for bullet in bullets:
        print(textwrap.fill(bullet, width=78, initial_indent="  * ", subsequent_indent="    ", break_on_hyphens=False))
    stamp = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(int(epoch)))
    print(f"\n -- {maintainer}  {stamp}")


main()
