"""Runs the browser tests: one line per test, the figures measured, and a summary line.
Usage: run.py (NOISECLOCK_BIN names the node binary). Exit status 1 when any test failed.
BROWSER_SHARD=k/2 or k/3 runs one part of the test classes, in name order (each part its own node,
broker and Chromium: scripts/browser-tests.sh runs them side by side)."""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import test_web  # noqa: E402
except Exception as error:  # a broken test file or no selenium: counted, not silent
    import traceback
    traceback.print_exc()
    print(f"✘ browser tests could not start: {error}")
    print("browser tests: 0 passed, 1 failed")
    sys.exit(1)


class LineResult(unittest.TextTestResult):
    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def _line(self, mark, test, note=""):
        took = time.monotonic() - self._started
        self.stream.write(f"{mark} browser {test.id().split('.', 1)[1]} ({took:.1f} s){note}\n")
        self.stream.flush()

    def addSuccess(self, test):
        unittest.TestResult.addSuccess(self, test)
        self._line("✔", test)

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._line("✘", test, " failed")

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._line("✘", test, " failed (error)")

    def addSkip(self, test, reason):
        unittest.TestResult.addSkip(self, test, reason)
        self._line("-", test, f" skipped: {reason}")


# The shards' classes (by name prefix), in name order within each; the last shard is the rest.
# Two halves: the wizard (Q_) and the settings page (L_) moved to the first when the second grew to
# twice its time. Three (make test): the halves took 136 and 127 s, the last 30 s with nothing else
# running, and the tests mostly wait on pages and the node: accessibility with the wizard; the
# face, alarms and settings pages with the bedroom; the rest.
SHARDS = {
    2: (("A_", "B_", "C_", "D_", "E_", "F_", "G_", "K_", "L_", "Q_"),),
    3: (("H_", "Q_"), ("A_", "B_", "C_", "D_", "E_", "F_", "G_", "I_")),
}


def shard(suite):
    """The classes of BROWSER_SHARD's part (k/n, n 2 or 3); all of them without it."""
    wanted = os.environ.get("BROWSER_SHARD")
    if not wanted:
        return suite
    part, _, count = wanted.partition("/")
    if not (count.isdigit() and int(count) in SHARDS and part.isdigit() and 1 <= int(part) <= int(count)):
        raise SystemExit(f"BROWSER_SHARD must be k/2 or k/3, not {wanted!r}")
    groups, part = SHARDS[int(count)], int(part)

    def part_of(name):
        for index, prefixes in enumerate(groups, start=1):
            if name.startswith(prefixes):
                return index
        return int(count)

    kept = [group for group in suite if any(part_of(test.__class__.__name__) == part for test in group)]
    return unittest.TestSuite(kept)


def main():
    started = time.monotonic()
    suite = shard(unittest.defaultTestLoader.loadTestsFromModule(test_web))
    runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=LineResult, verbosity=0)
    result = runner.run(suite)
    for name, value in test_web.MEASURED.items():
        print(f"  measured: {name}: {value}")
    failed = len(result.failures) + len(result.errors)
    passed = result.testsRun - failed - len(result.skipped)
    print(f"browser tests: {passed} passed, {failed} failed ({time.monotonic() - started:.0f} s)")
    return 1 if failed or not result.testsRun else 0


if __name__ == "__main__":
    sys.exit(main())
