#!/usr/bin/env python3
"""Times what an app pays to use ThumbForge's plugin the first time: a package that depends
on this repository by path runs `swift package thumbforge --help` from a cold scratch folder
(nothing built; packages already fetched into SwiftPM's shared cache), once with ThumbForge's
default traits (the `Serve` trait: the server and its packages) and once with `traits: []`.
Each build step SwiftPM runs is counted, and so is each one of the server's packages. The
result file plugin-cold.json (record.py) is compared with the baseline, or becomes it with
--record.

    plugin_cold.py [--reps 1] [--package PATH] [--only default|none] [--record]

--package measures another checkout of ThumbForge (default: this one); --only runs one of
the two kinds.

Run it alone: a cold build uses every core, and anything beside it is measured with it.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import record

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SERVER_MODULES = re.compile(r"Compiling (Hummingbird\w*|NIO\w*|Prometheus|ServiceLifecycle)\b")


def package(folder, traits, root):
    """A package whose only use of ThumbForge (at `root`) is its plugin."""
    argument = "" if traits is None else ", traits: []"
    os.makedirs(os.path.join(folder, "Sources", "App"))
    with open(os.path.join(folder, "Package.swift"), "w") as file:
        file.write(
            "// swift-tools-version: 6.1\nimport PackageDescription\n\n"
            "let package = Package(\n  name: \"App\",\n  platforms: [.macOS(.v14)],\n"
            f"  dependencies: [.package(path: \"{root}\"{argument})],\n"
            "  targets: [.target(name: \"App\")]\n)\n")
    with open(os.path.join(folder, "Sources", "App", "App.swift"), "w") as file:
        file.write("public let assets = \"Assets\"\n")


def cold_run(traits, root):
    """Seconds, build steps and server steps of one cold `swift package thumbforge --help`."""
    folder = tempfile.mkdtemp(prefix="thumbforge-plugin-cold-")
    try:
        package(folder, traits, root)
        started = time.monotonic()
        run = subprocess.run(
            ["swift", "package", "--allow-writing-to-package-directory", "thumbforge", "--help"],
            cwd=folder, capture_output=True, text=True)
        seconds = time.monotonic() - started
        output = run.stdout + run.stderr
        if run.returncode != 0 or "USAGE" not in output.upper():
            raise SystemExit(f"plugin_cold.py: the plugin did not run:\n{output[-3000:]}")
        steps = len(re.findall(r"^\[\d+/\d+\]", output, re.MULTILINE))
        return {"seconds": round(seconds, 1), "steps": steps,
                "server_steps": len(SERVER_MODULES.findall(output))}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--package", default=ROOT)
    parser.add_argument("--only", choices=["default", "none"])
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    options = parser.parse_args()
    kinds = {"default traits": None, "traits: []": []}
    if options.only:
        kinds = {k: v for k, v in kinds.items() if (v is None) == (options.only == "default")}
    runs = {name: [] for name in kinds}
    for _ in range(options.reps):
        for name, traits in kinds.items():
            runs[name].append(cold_run(traits, os.path.abspath(options.package)))
    labels = {"default traits": "default traits (with `serve`)", "traits: []": "`traits: []` (no server)"}
    rows = {}
    for name, measured in runs.items():
        rows[labels[name]] = {
            "build steps": measured[-1]["steps"], "of the server's packages": measured[-1]["server_steps"],
            "seconds": record.figure([run["seconds"] for run in measured], gate=True)}
        print(f"{name:15} {rows[labels[name]]['seconds']['value']:7.1f} s  "
              f"{measured[-1]['steps']:5} steps  {measured[-1]['server_steps']:4} of the server's")
    command = "Scripts/bench/plugin_cold.py" + (f" --reps {options.reps}" if options.reps != 1 else "")
    doc = record.document(
        "plugin-cold", "The plugin's first build", command,
        {"plugin-cold": {"key": "dependency", "rows": rows,
                         "note": f"Medians of {options.reps} cold run(s) of each kind."}},
        {"kinds": sorted(runs)})
    sys.exit(record.finish(doc, options.record))


if __name__ == "__main__":
    main()
