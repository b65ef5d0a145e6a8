#!/usr/bin/env python3
"""What the check of a copied master costs: full builds of one A/B binary with and without
the decode every master shipped as-is gets before it is shipped (docs/recipes.md, "Copied
masters"), recorded as Scripts/bench/results/verified-copies.json (via record.py).

    verified_copies.py --thumbforge BIN --base COMMIT --corpus NAME=FOLDER ... [--runs N]
                       [--record]

BIN is built from COMMIT with Scripts/bench/ab-switches.patch applied: its switch
`THUMBFORGE_AB_OFF=verified-copies` ships a copy on its content hash alone. Each round builds
every folder into an empty catalog with the check and without it, back to back (which first
alternates from round to round; outputs moved aside, deleted between rounds, as
mechanisms.py does). A folder's copies are counted from its manifest: the outputs whose hash
is one of the set's sources'. The figures: the median wall and CPU time of each, and the
ratio with the check ÷ without it, the median over rounds with its 98 % interval.
"""
import argparse
import json
import os
import sys

import mechanisms
import record

KNOB = "verified-copies"


def copies(out):
    """The outputs of the build in `out` that are a source's bytes as they are."""
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    count = 0
    for imageset in manifest["imageSets"]:
        sources = {source["hash"] for source in imageset["sources"]}
        count += sum(output["hash"] in sources for output in imageset["outputs"])
    return count


def table(folders, times, counts):
    """The result's table: one row a folder."""
    rows = {}
    for name, _ in folders:
        on, off = times[(name, None)], times[(name, KNOB)]
        row = {"copies": counts[name]}
        for label, runs in (("without the check", off), ("with it", on)):
            row[f"{label}, wall s"] = record.figure([r[0] for r in runs], digits=3)
            row[f"{label}, CPU s"] = record.figure([r[1] for r in runs], digits=3)
        for i, measure in enumerate(("wall", "CPU")):
            row[f"with ÷ without, {measure}"] = record.ratio_figure(
                [a[i] / b[i] for a, b in zip(on, off)])
        cpu = row["with it, CPU s"]["value"] - row["without the check, CPU s"]["value"]
        row["CPU ms a copy"] = record.sig(1000 * cpu / max(1, counts[name]), 2)
        rows[name] = row
    return {
        "key": "folder",
        "rows": rows,
        "note": "full builds into an empty catalog; medians over paired rounds, the ratio's "
                "with its 98 % interval; CPU ms a copy: the CPU time the checks add ÷ the copies",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(parser, "a folder to build with and without the check")
    parser.add_argument("--base", metavar="COMMIT", required=True,
                        help="the commit the switches patch was applied to, to build BIN")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    binary = os.path.abspath(args.thumbforge)
    folders = [(name, os.path.abspath(path)) for name, path in record.corpora(args.corpus)]
    times = {(name, knob): [] for name, _ in folders for knob in (None, KNOB)}
    mechanisms.empty_trash()
    for round_ in range(args.runs):
        for name, folder in folders:
            pair = [None, KNOB] if round_ % 2 == 0 else [KNOB, None]
            for knob in pair:
                out = mechanisms.output_folder(f"verified-copies-{name}", knob)
                wall, cpu, _ = mechanisms.timed(binary, knob, folder, out, "full")
                times[(name, knob)].append((wall, cpu))
        print(f"round {round_ + 1}/{args.runs} done", file=sys.stderr)
        mechanisms.empty_trash()
    # The last round's builds with the check are still in place.
    counts = {name: copies(mechanisms.output_folder(f"verified-copies-{name}", None))
              for name, _ in folders}
    doc = record.document(
        "verified-copies", "What the check of copied masters costs",
        record.corpus_command("verified_copies.py", args.corpus,
                              f" --base COMMIT --runs {args.runs}"),
        {"verified-copies": table(folders, times, counts)},
        parameters={"runs": args.runs, "folders": ", ".join(n for n, _ in folders)},
        about=mechanisms.ab_about(binary, args.base))
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
