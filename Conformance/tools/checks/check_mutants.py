#!/usr/bin/env python3
"""The mutation check of the suite (Spec/conformance.md §9): the Python implementation
(drivers/model_driver.py) passes every case, and each of its deliberately wrong variants
(drivers/mutants.py, at least one per rule class) fails at least one case of its selection.
A mutant the suite lets through is a hole in the suite.

Usage: check_mutants.py [--runner PATH] [--jobs N] [NAME…]
  --runner PATH  the conformance runner (default: `swift build --show-bin-path`/conformance)
  NAME…          check only these mutants (and skip the run without a mutant)
Exit status 0 when the plain driver passes and every mutant is caught, 1 otherwise.
"""
import os
import subprocess
import sys
import time

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(TOOLS))
DRIVER = os.path.join(TOOLS, "drivers", "model_driver.py")


def run(runner, jobs, selection, *driver_arguments):
    """(exit status, failing case names, seconds) of one runner run against the model driver."""
    started = time.monotonic()
    command = [runner, "--jobs", str(jobs)] + selection + ["--", sys.executable, DRIVER] + list(driver_arguments)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    failing = [line[5:] for line in result.stdout.splitlines() if line.startswith("FAIL ")]
    return result.returncode, failing, time.monotonic() - started, result.stdout + result.stderr


def main(arguments):
    runner, jobs, names = None, os.cpu_count() or 1, []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--runner":
            runner = arguments.pop(0)
        elif argument == "--jobs":
            jobs = int(arguments.pop(0))
        else:
            names.append(argument)
    if runner is None:
        folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
        runner = os.path.join(folder, "conformance")
    listing = subprocess.run([sys.executable, DRIVER, "--list-mutants"], capture_output=True, text=True, check=True)
    mutants = [line.split("\t") for line in listing.stdout.splitlines()]
    unknown = set(names) - {m[0] for m in mutants}
    if unknown:
        print(f"check_mutants: no mutant {', '.join(sorted(unknown))}", file=sys.stderr)
        return 1
    problems = 0
    if not names:
        status, failing, seconds, output = run(runner, jobs, [])
        if status != 0:
            print(f"FAIL the model driver without a mutant fails {len(failing)} cases (first: "
                  f"{failing[0] if failing else '-'}); the mutation check needs it to pass:")
            print("\n".join(output.splitlines()[-12:]))
            return 1
        # The model keeps no coordination file: the sharing cases are skipped, and said so.
        skipped = [line for line in output.splitlines() if line.startswith("skipped ")]
        print(f"ok   the model driver passes the whole suite ({seconds:.0f} s)"
              + "".join(f"; {line}" for line in skipped))
    classes = set()
    for name, rule_class, selection, summary in mutants:
        if names and name not in names:
            continue
        status, failing, seconds, output = run(runner, jobs, selection.split(), "--mutant", name)
        if status == 1 and failing:
            classes.add(rule_class)
            print(f"ok   {name} ({rule_class}): caught by {len(failing)} cases, first {failing[0]} ({seconds:.0f} s)")
        else:
            problems += 1
            why = "every selected case passed" if status == 0 else f"the run ended with status {status}"
            print(f"FAIL {name} ({rule_class}): {why} ({selection}): {summary}")
            if status not in (0, 1):
                print("\n".join(output.splitlines()[-5:]))
    checked = len(names) or len(mutants)
    print(f"{checked - problems} of {checked} mutants caught, {len(classes)} rule classes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
