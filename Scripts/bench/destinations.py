#!/usr/bin/env python3
"""What the destinations beside the catalog cost a build that changes nothing: no-change
rebuilds of each folder with the catalog alone, with its web sizes (`web:`), with its Android
drawables (`android:`) and with both, recorded as
Scripts/bench/results/destinations.json (via record.py).

    destinations.py --thumbforge BIN --corpus NAME=FOLDER ... [--runs N] [--record]

Each folder is built once per configuration into its own output (the folder's own
thumbforge.yml, if any, and that plus `web:` and `android:` sections with their defaults),
then each round rebuilds every configuration back to back (which first alternates
from round to round). Every rebuild must render nothing. The figures: how many files the
manifest lists (each one a rebuild looks up to notice it deleted or edited), the median wall
and CPU time of each rebuild, and the ratio with the destination ÷ the catalog alone, the
median over rounds with its 98 % interval.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import record
import runs

# The configurations compared, by label: what each appends to the folder's own configuration
# (`{out}` is the configuration's output folder).
CONFIGURATIONS = {
    "catalog": "",
    "catalog + web": "\nweb:\n  folder: {out}/web\n",
    "catalog + android": "\nandroid:\n  folder: {out}/android/res\n",
    "catalog + web + android": "\nweb:\n  folder: {out}/web\nandroid:\n  folder: {out}/android/res\n",
}


def configuration(folder, extra, out):
    """A configuration file in `out`: the folder's own, then `extra`."""
    own = os.path.join(folder, "thumbforge.yml")
    text = open(own).read() if os.path.exists(own) else ""
    path = os.path.join(out, "thumbforge.yml")
    with open(path, "w") as f:
        f.write(text + extra.format(out=out))
    return path


def build(binary, folder, config, out):
    """One build: (wall s, CPU s) and its stderr."""
    command = [binary, "build", folder, "--config", config, "-q",
               "-o", os.path.join(out, "Assets.xcassets")]
    wall, cpu, result, _ = runs.timed_run(command)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr.decode(errors='replace')}")
    return wall, cpu


def rendered_nothing(binary, folder, config, out):
    """Whether `check` finds the configuration's outputs up to date (the rebuilds timed are
    no-change ones)."""
    command = [binary, "check", folder, "--config", config,
               "-o", os.path.join(out, "Assets.xcassets")]
    _, _, result, _ = runs.timed_run(command)
    return result.returncode == 0


def files_listed(out):
    """How many files the manifest in `out` lists: each imageset's outputs and Contents.json,
    and its files (and web JSON) of each destination."""
    with open(os.path.join(out, "manifest.json")) as f:
        sets = json.load(f)["imageSets"]
    count = 0
    for entry in sets:
        count += len(entry["outputs"]) + 1
        for destination in ("web", "android"):
            listed = entry.get(destination) or {}
            count += len(listed.get("files", [])) + (1 if listed.get("json") else 0)
    return count


def table(folders, times, files):
    """The result's table: one row a folder and configuration."""
    rows = {}
    for name, _ in folders:
        alone = times[(name, "catalog")]
        for label in CONFIGURATIONS:
            runs_ = times[(name, label)]
            row = {"files": files[(name, label)],
                   "wall s": record.figure([r[0] for r in runs_], digits=3),
                   "CPU s": record.figure([r[1] for r in runs_], digits=3)}
            if label != "catalog":
                for i, measure in enumerate(("wall", "CPU")):
                    row[f"÷ catalog alone, {measure}"] = record.ratio_figure(
                        [a[i] / b[i] for a, b in zip(runs_, alone)])
            rows[f"{name}: {label}"] = row
    return {
        "key": "folder: configuration",
        "rows": rows,
        "note": "no-change rebuilds; medians over paired rounds, ratios with their 98 % interval",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(parser, "a folder to rebuild with each configuration")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    binary = os.path.abspath(args.thumbforge)
    folders = [(name, os.path.abspath(path)) for name, path in record.corpora(args.corpus)]
    work = tempfile.mkdtemp(prefix="destinations-")
    try:
        setups = {}
        files = {}
        for name, folder in folders:
            for index, (label, extra) in enumerate(CONFIGURATIONS.items()):
                out = os.path.join(work, f"{name}-{index}")
                os.makedirs(out)
                config = configuration(folder, extra, out)
                build(binary, folder, config, out)
                if not rendered_nothing(binary, folder, config, out):
                    sys.exit(f"{name}, {label}: check is not green after the build")
                setups[(name, label)] = (folder, config, out)
                files[(name, label)] = files_listed(out)
        times = {key: [] for key in setups}
        labels = list(CONFIGURATIONS)
        for round_ in range(args.runs):
            for name, _ in folders:
                for label in labels if round_ % 2 == 0 else labels[::-1]:
                    times[(name, label)].append(build(binary, *setups[(name, label)]))
            print(f"round {round_ + 1}/{args.runs} done", file=sys.stderr)
        for key, setup in setups.items():
            if not rendered_nothing(binary, *setup):
                sys.exit(f"{key}: a rebuild changed the outputs")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    doc = record.document(
        "destinations", "No-change rebuilds with the destinations beside the catalog",
        record.corpus_command("destinations.py", args.corpus, f" --runs {args.runs}"),
        {"destinations": table(folders, times, files)},
        parameters={"runs": args.runs, "folders": ", ".join(n for n, _ in folders)},
        about=record.info(binary))
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
