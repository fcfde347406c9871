#!/usr/bin/env python3
"""Runs third-party PNG codecs through the png conformance cases and writes RESULTS.md.

    python3 Conformance/drivers/run_peers.py [--no-install] [--skip-ours] [--out FILE]

One command, from the repository root or anywhere: it
1. installs what it can: `python3 -m pip install --user pillow pypng` for a missing Python
   library, `apt-get install -y libpng-dev` for a missing libpng (as root, where apt-get exists);
   `--no-install` only uses what is there;
2. builds the C driver (`cc … libpng_driver.c $(pkg-config --cflags --libs libpng) -lz`, into
   .build/peers/) and the Swift runner and our own driver (`swift build --product …`);
3. runs `conformance --area png --verbose -- DRIVER` for each peer and our driver, takes each
   case's verdict from the runner's lines (`ok NAME`, `FAIL NAME`), asks each failed case again
   through the same driver to see how it failed (peer_results.py), and writes the table
   (peer_report.py). A peer whose library cannot be had is listed as skipped, with the reason.

Nothing here is part of the Swift product or of `swift test`. The classifier has its own
checks: `python3 Conformance/drivers/test_peer_results.py`.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import peer_report  # noqa: E402
from peer_results import classify  # noqa: E402

PYTHON = sys.executable or "python3"
PEER_BUILD = os.path.join(ROOT, ".build", "peers")


def say(text):
    print(text, file=sys.stderr, flush=True)


def quiet(command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def python_peer(module, package, install):
    """None when `module` imports (installing `package` first if allowed), else the reason."""
    check = [PYTHON, "-c", f"import {module}"]
    if quiet(check).returncode == 0:
        return None
    if not install:
        return f"Python module {module} is missing (pip install --user {package}); run without --no-install"
    say(f"installing {package} with pip")
    result = quiet([PYTHON, "-m", "pip", "install", "--user", package])
    if result.returncode != 0 or quiet(check).returncode != 0:
        last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"pip install --user {package} failed: {last[0]}"
    return None


def libpng_flags():
    result = quiet(["pkg-config", "--cflags", "--libs", "libpng"]) if shutil.which("pkg-config") else None
    return result.stdout.split() if result and result.returncode == 0 else None


def libpng_peer(install):
    """(program, None) once the C driver is built, else (None, reason)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None, "no C compiler (cc) on this machine"
    flags = libpng_flags()
    if flags is None and install and shutil.which("apt-get") and os.geteuid() == 0:
        say("installing libpng-dev and pkg-config with apt-get")
        if quiet(["apt-get", "install", "-y", "libpng-dev", "pkg-config"]).returncode != 0:
            quiet(["apt-get", "update"])
            quiet(["apt-get", "install", "-y", "libpng-dev", "pkg-config"])
        flags = libpng_flags()
    if flags is None:
        return None, ("libpng-dev is not installed (Debian: apt-get install libpng-dev pkg-config)"
                      + ("" if install else "; run without --no-install"))
    os.makedirs(PEER_BUILD, exist_ok=True)
    program = os.path.join(PEER_BUILD, "libpng_driver")
    source = os.path.join(HERE, "libpng_driver.c")
    result = quiet([compiler, "-O2", "-o", program, source, *flags, "-lz"])
    if result.returncode != 0:
        return None, "building libpng_driver.c failed: " + result.stderr.strip().splitlines()[-1]
    return program, None


def swift_product(product):
    say(f"building {product} (swift build --product {product})")
    result = quiet(["swift", "build", "--product", product], cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(f"swift build --product {product} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    bin_path = quiet(["swift", "build", "--show-bin-path"], cwd=ROOT).stdout.strip()
    return os.path.join(bin_path, product)


def load_cases():
    cases = []
    for file, _ in peer_report.FILES:
        with open(os.path.join(ROOT, "Conformance", "png", f"{file}.json")) as f:
            for case in json.load(f)["cases"]:
                case["file"] = file
                case["name"] = "png/" + case["name"]
                cases.append(case)
    return cases


def run_runner(runner, driver):
    """The runner's verdict for every case: {name: ("pass"|"fail", reason)}, and the driver's name."""
    result = quiet([runner, "--area", "png", "--verbose", "--", *driver], cwd=ROOT)
    if result.returncode == 2:
        raise RuntimeError((result.stdout + result.stderr).strip().splitlines()[-1])
    verdicts, current, implementation = {}, None, "?"
    for line in result.stdout.splitlines():
        if line.startswith("driver: "):
            implementation = line[len("driver: "):].split("; areas:")[0]
        if line.startswith("ok "):
            name = line[3:].strip().rsplit(" (", 1)[0]
            verdicts[name], current = ("pass", ""), None
        elif line.startswith("FAIL "):
            current = line[5:].strip()
            verdicts[current] = ("fail", "")
        elif current and line.startswith("    "):
            status, reason = verdicts[current]
            verdicts[current] = (status, reason + line.strip() + "\n")
        else:
            current = None
    summary = result.stdout.strip().splitlines()[-1]
    return verdicts, implementation, summary


class Driver:
    """The peer's driver, asked directly (one request a line), to see how a case failed."""

    def __init__(self, command):
        self.command = command
        self.process = None
        self.identifier = 0

    def ask(self, request, timeout=20):
        if self.process is None:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        self.identifier += 1
        self.process.stdin.write(json.dumps(dict(request, id=self.identifier)) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        return json.loads(line) if line else None

    def close(self):
        if self.process:
            self.process.stdin.close()
            self.process.wait(timeout=30)


def verifier(writer, libpng_program):
    """A function (png, request) -> True/False/None: does the PNG decode, with a library other
    than the one that wrote it, to the request's pixels? None when no such library is here."""

    def with_libpng(png):
        out = subprocess.run([libpng_program, "decode"], input=png, capture_output=True, timeout=30).stdout
        lines = out.split(b"\n")
        for index, line in enumerate(lines):
            if line.startswith(b"decoded "):
                count = int(line.split()[7])
                return b"\n".join(lines[index + 1:])[:count]
            if line.startswith(b"error "):
                return None
        return None

    def with_pypng(png):
        import png as pypng
        try:
            _, _, rows, info = pypng.Reader(bytes=png).read()
            data = bytearray()
            for row in rows:
                data += b"".join(v.to_bytes(2, "big") for v in row) if info["bitdepth"] == 16 else bytes(row)
            return bytes(data)
        except Exception:
            return None

    def verify(png, request):
        pixels = base64.b64decode(request["pixels"])
        if libpng_program and writer != "libpng":
            return with_libpng(png) == pixels
        if writer != "pypng" and quiet([PYTHON, "-c", "import png"]).returncode == 0:
            return with_pypng(png) == pixels
        return None

    return verify


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-install", action="store_true", help="use only what is installed")
    parser.add_argument("--skip-ours", action="store_true", help="leave out this project's own driver")
    parser.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    options = parser.parse_args()
    install = not options.no_install

    runner = swift_product("conformance")
    peers, skipped = [], []
    if not options.skip_ours:
        peers.append(("imagecache", [swift_product("conformance-driver")]))
    program, reason = libpng_peer(install)
    if program:
        peers.append(("libpng", [PYTHON, os.path.join(HERE, "libpng_driver.py"), program]))
    else:
        skipped.append(("libpng", reason))
    for peer, module, package, script in (("Pillow", "PIL", "pillow", "pillow_driver.py"),
                                          ("pypng", "png", "pypng", "pypng_driver.py")):
        reason = python_peer(module, package, install)
        if reason:
            skipped.append((peer, reason))
        else:
            peers.append((peer, [PYTHON, os.path.join(HERE, script)]))

    cases = load_cases()
    results, implementations = {}, []
    for peer, driver in peers:
        say(f"running the png cases against {peer}")
        verdicts, implementation, summary = run_runner(runner, driver)
        say(f"  {summary}")
        implementations.append((peer, implementation))
        missing = [c["name"] for c in cases if c["name"] not in verdicts]
        if missing:
            raise SystemExit(f"the runner gave no verdict for {len(missing)} cases, e.g. {missing[0]}")
        probe = Driver(driver)
        verify = verifier(peer, program)
        results[peer] = {}
        for case in cases:
            verdict = verdicts[case["name"]]
            actual = None
            if verdict[0] == "fail" and "no response within the time limit" not in verdict[1]:
                actual = probe.ask(case["steps"][0]["request"])
                if actual is None:  # the driver died on it: start a new one for the next case
                    probe = Driver(driver)
            results[peer][case["name"]] = classify(case, verdict, actual, verify)
        probe.close()

    command = "python3 Conformance/drivers/run_peers.py"
    peer_report.write(options.out, cases, implementations, results, skipped, command)
    say(f"wrote {os.path.relpath(options.out, ROOT)}")
    for peer, _ in implementations:
        passed = sum(r[0] == "pass" for r in results[peer].values())
        print(f"{peer}: {passed} passed, {len(cases) - passed} failed")
    for peer, reason in skipped:
        print(f"{peer}: skipped: {reason}")


if __name__ == "__main__":
    main()
