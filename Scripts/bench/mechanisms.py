#!/usr/bin/env python3
"""What each speed mechanism gains: paired runs of one thumbforge binary with and without
each mechanism, recorded as Scripts/bench/results/mechanisms.json (via record.py), or with
--instructions their instruction counts under callgrind, as mechanism-instructions.json.

    mechanisms.py [--runs N] [--instructions | --memory] --binary BIN --base COMMIT [--record]
                  [--name RESULT] --workload NAME=CORPUS[:MODE] ... KNOB...
    mechanisms.py --summarise FILE     figures and verdicts again from FILE's repetitions

BIN must be built from COMMIT with the A/B switches applied (`git apply
Scripts/bench/ab-switches.patch`; they never land on main): `THUMBFORGE_AB_OFF=KNOB` turns
one mechanism off, falling back to the plain path; a KNOB `NAME=BIN2` runs BIN2 instead, with
nothing switched off (a build with a mechanism removed from its sources, say). MODE is `full` (a build into an empty
catalog, the default) or `rebuild` (a no-change build of a catalog built once beforehand).

Timed (the default): each round runs, for every knob in a shuffled order, the binary with
every mechanism on and with the knob, back to back (which first alternates from round to
round), so each pair sees the same machine (earlier outputs are moved aside and deleted between
rounds); a knob's figure is the median over rounds of
(time with the knob off ÷ time with it on), for wall and for CPU (user + system) time, and
with --memory for the build's peak resident set (`peak`, for mechanisms that give memory
back).
With --instructions each round counts the instructions of one build with every mechanism
on and one per knob (callgrind, every thread together): the work a mechanism saves,
whatever the machine's load, but not what it gains by running work side by side.

Each figure has its noise ((highest − lowest) ÷ median) and a distribution-free interval
for its median (the order statistics that hold it with 98 % confidence; timings need
at least 7 rounds for one). A knob pays when some figure is at least 1.02 with its interval
above 1; it does not when every figure's interval is below 1.02 (docs/performance.md
removes those); otherwise the rounds cannot tell. For the verdict each figure's interval is
taken at 98 % ÷ the row's figures (Bonferroni), so that a mechanism doing nothing passes
with a chance under 2 % however many workloads a row has. The result file is rewritten after every
round, so a run stopped early keeps the rounds it finished (`record.py record` makes it the
baseline).
"""
import argparse
import concurrent.futures
import os
import re
import random
import shutil
import subprocess
import sys
import time

import record
import runs

ROOT = record.ROOT
WORK = os.path.join(ROOT, "bench-work", "runs", "mechanisms")
TRASH = os.path.join(ROOT, "bench-work", "trash-mechanisms")


def other_binary(knob):
    """The binary a knob `NAME=BIN` runs instead of the switched one (None for a switch)."""
    return os.path.abspath(knob.split("=", 1)[1]) if knob and "=" in knob else None


def knob_name(knob):
    return knob.split("=", 1)[0]


def output_folder(workload, knob):
    """Where the builds of `workload` with `knob` (None: every mechanism on) write."""
    return os.path.join(WORK, workload, knob_name(knob) if knob else "on")


def prepare(knob, out, mode):
    """The environment of one build with `knob` off (None: every mechanism on), and its
    output folder emptied for a full build."""
    env = dict(os.environ)
    env.pop("THUMBFORGE_AB_OFF", None)
    if knob and not other_binary(knob):
        env["THUMBFORGE_AB_OFF"] = knob
    if mode == "full":
        # Moved aside, not deleted: a deletion would charge the mechanism whose folder was
        # emptied last (runs.py).
        runs.move_aside(out, TRASH)
    return env


def empty_trash():
    """Deletes the outputs moved aside, then waits out the 30 s in which ext4 charges new
    files for the deleted inodes: between rounds, never within one."""
    if os.path.exists(TRASH):
        shutil.rmtree(TRASH)
        os.sync()
        time.sleep(31)


def failed(knob, command, result):
    sys.exit(f"mechanisms.py: {knob or 'all on'}: {' '.join(command)}: "
             f"{result.stderr.decode()[-400:]}")


def timed(binary, knob, corpus, out, mode):
    """One build: (wall s, CPU s, peak MB). `knob` None runs with every mechanism on."""
    env = prepare(knob, out, mode)
    command = [other_binary(knob) or binary, "build", corpus, "-q", "-o", os.path.join(out, "Assets.xcassets")]
    wall, cpu, result, peak = runs.timed_run(command, env)
    if result.returncode != 0:
        failed(knob, command, result)
    return wall, cpu, peak


def counted(binary, knob, corpus, out, mode):
    """One build under callgrind: its instructions (every thread), as a 1-tuple."""
    env = prepare(knob, out, mode)
    profile = out.rstrip("/") + ".callgrind"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
               other_binary(knob) or binary,
               "build", corpus, "-q", "-o", os.path.join(out, "Assets.xcassets")]
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        failed(knob, command, result)
    with open(profile) as f:
        total = re.search(r"^(?:summary|totals): *(\d+)", f.read(), re.M)
    os.remove(profile)
    return (int(total.group(1)),)


def verdict(cells, timed=True):
    """Whether a knob pays by its figures (see the module's comment). Each of a row's figures
    is a chance to pass by luck, so each is judged at 98 % ÷ the row's figures (Bonferroni):
    a row of a mechanism that does nothing passes with a chance under 2 %. Timings need the
    rounds for such an interval; counts do not drift."""
    confidence = 1 - 0.02 / len(cells)
    if timed and record.order_statistic(min(len(c["reps"]) for c in cells), confidence) == 0:
        return "cannot tell"
    bounds = [record.interval(c["reps"], confidence) for c in cells]
    if any(c["value"] >= 1.02 and low > 1 for c, (low, _) in zip(cells, bounds)):
        return "yes"
    if all(high < 1.02 for _, high in bounds):
        return "no"
    return "cannot tell"


def note(instructions, rounds, memory=False):
    """The line under the table: what a figure is and what `pays` says."""
    what = ("instructions with the mechanism off ÷ with it on (callgrind)" if instructions
            else "time (and with `peak`, the peak resident set) with the mechanism off ÷ "
            "with it on, paired runs" if memory
            else "time with the mechanism off ÷ time with it on, paired runs")
    spread = "its 98 % interval" if rounds >= 7 else "the range of the rounds"
    return (f"{what}, median of {rounds} rounds with {spread} (above 1: the mechanism saves "
            "work); `pays`: yes when some figure is at least 1.02 with its interval above 1, no "
            "when every interval is below 1.02, each interval taken for the verdict at 98 % ÷ "
            "the row's figures")


def summarise(path):
    """Rewrites a result file's figures, verdicts and note from its repetitions."""
    doc = record.load(path)
    table = doc["tables"]["mechanisms"]
    instructions = "instructions" in doc["tables"]["baseline"]["rows"]
    for knob, row in table["rows"].items():
        for key, cell in row.items():
            if isinstance(cell, dict):
                row[key] = record.ratio_figure(cell["reps"], 4 if instructions else 3)
        row.pop("pays", None)
        row["pays"] = verdict([c for c in row.values() if isinstance(c, dict)], not instructions)
    memory = any(key.endswith(" peak") for row in table["rows"].values() for key in row)
    table["note"] = note(instructions, doc["parameters"]["runs"], memory)
    record.write(doc, path)


def measures(args):
    """What each build of the run gives: its instructions, or its wall and CPU time (and
    with --memory its peak resident set)."""
    if args.instructions:
        return ["instructions"]
    return ["wall", "CPU", "peak"] if args.memory else ["wall", "CPU"]


def ab_about(binary, base, patched=True):
    """The machine and tools of a run of `binary`, built from `base` (with the switches
    patch applied when `patched`)."""
    about = record.info(thumbforge=binary)
    # The binary is the base commit with the switches, not this checkout's sources.
    about["tools"]["thumbforge_commit"] = base
    if patched:
        about["tools"]["thumbforge_sources_modified"] = "Scripts/bench/ab-switches.patch applied"
    return about


def write_result(args, knobs, workloads, ratios, base, binary, rounds):
    """The document of the first `rounds` rounds, written to bench-work/results/mechanisms.json:
    (its path, the rows by knob)."""
    names = measures(args)
    rows = {}
    for knob in knobs:
        row = {}
        for name, _, _ in workloads:
            for i, measure in enumerate(names):
                row[f"{name} {measure}"] = record.ratio_figure(
                    ratios[(name, knob)][i], 4 if args.instructions else 3)
        row["pays"] = verdict(
            [c for c in row.values() if isinstance(c, dict)], not args.instructions)
        rows[knob_name(knob)] = row
    base_row = {}
    for name, _, _ in workloads:
        for i, measure in enumerate(names):
            base_row[f"{name} {measure}"] = record.figure(base[name][i], digits=3)
    table = {
        "key": "mechanism off",
        "rows": rows,
        "note": note(args.instructions, rounds, args.memory),
    }
    unit = ("instructions" if args.instructions
            else "seconds, peak MB" if args.memory else "seconds")
    baseline = {"key": "all mechanisms on", "rows": {unit: base_row}}
    patched = any(not other_binary(k) for k in knobs)
    about = ab_about(binary, args.base, patched)
    if not patched:
        about["tools"]["compared_with"] = "each knob's binary: the sources of the commit " \
            "after this one, built the same way"
    described = ", ".join(f"{n} ({os.path.basename(c)}, {m})" for n, c, m in workloads)
    workload = args.name or ("mechanism-instructions" if args.instructions else "mechanisms")
    doc = record.document(
        workload,
        "What each speed mechanism saves in instructions" if args.instructions
        else "What each speed mechanism gains",
        "Scripts/bench/mechanisms.py --runs %d%s --binary BIN --base COMMIT %s %s"
        % (rounds, (" --instructions" if args.instructions else "")
           + (" --memory" if args.memory else "")
           + (f" --name {args.name}" if args.name else ""), " ".join(f"--workload {s}" for s in args.workload),
           " ".join(f"{knob_name(k)}=BIN" if other_binary(k) else k for k in knobs)),
        {"mechanisms": table, "baseline": baseline},
        parameters={"workloads": described, "runs": rounds},
        about=about,
    )
    path = os.path.join(record.RUNS, f"{workload}.json")
    record.write(doc, path)
    return path, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--binary")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing")
    parser.add_argument("--memory", action="store_true",
                        help="also compare each build's peak resident set (`peak`)")
    parser.add_argument("--seed", type=int, default=1, help="the knobs' order in each round")
    parser.add_argument("--name", help="the result file's name (default: mechanisms, or "
                        "mechanism-instructions with --instructions), for a run of some knobs again")
    parser.add_argument("--base", metavar="COMMIT",
                        help="the commit the switches patch was applied to, to build BIN")
    parser.add_argument("--workload", action="append", metavar="NAME=CORPUS[:MODE]")
    parser.add_argument("--summarise", metavar="FILE",
                        help="only rewrite FILE's figures and verdicts from its repetitions")
    parser.add_argument("knobs", nargs="*", metavar="KNOB")
    args = parser.parse_args()
    if args.summarise:
        summarise(args.summarise)
        return
    if not (args.knobs and args.binary and args.base and args.workload):
        parser.error("--binary, --base, a --workload and a KNOB are needed")
    knobs, specs = args.knobs, args.workload
    workloads = []
    for spec in specs:
        name, rest = spec.split("=", 1)
        corpus, _, mode = rest.partition(":")
        workloads.append((name, os.path.abspath(corpus), mode or "full"))
    binary = os.path.abspath(args.binary)
    if args.instructions:
        # valgrind 3.19 gives up on the debug information of a release build with the Swift
        # runtime linked statically: it counts a copy without it (the same code).
        os.makedirs(WORK, exist_ok=True)
        stripped = os.path.join(WORK, "thumbforge-without-debug-info")
        subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
        binary = stripped
        # And of each binary a knob runs instead (`NAME=BIN2`).
        for i, knob in enumerate(knobs):
            if other_binary(knob):
                copy = os.path.join(WORK, f"{knob_name(knob)}-without-debug-info")
                subprocess.run(["strip", "--strip-debug", "-o", copy, other_binary(knob)],
                               check=True)
                knobs[i] = f"{knob_name(knob)}={copy}"
    rng = random.Random(args.seed)
    width = len(measures(args))
    ratios = {(w, k): [[] for _ in range(width)] for w, _, _ in workloads for k in knobs}
    base = {w: [[] for _ in range(width)] for w, _, _ in workloads}
    for name, corpus, mode in workloads:
        if mode == "rebuild":  # the catalog each no-change run compares with
            for knob in [None] + knobs:
                timed(binary, knob, corpus, output_folder(name, knob), "full")
    empty_trash()
    for round_ in range(args.runs):
        order = list(knobs)
        rng.shuffle(order)
        for name, corpus, mode in workloads:
            if args.instructions:
                # Counts do not drift with the machine's load: one build with every mechanism
                # on per round, and the builds side by side (callgrind runs one thread at a time).
                def count(knob):
                    return counted(binary, knob, corpus, output_folder(name, knob), mode)
                with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
                    counts = dict(zip([None] + order, pool.map(count, [None] + order)))
                base[name][0].append(counts[None][0])
                for knob in order:
                    ratios[(name, knob)][0].append(counts[knob][0] / counts[None][0])
                continue
            for knob in order:
                pair = [None, knob] if round_ % 2 == 0 else [knob, None]
                times = {k: timed(binary, k, corpus, output_folder(name, k), mode)
                         for k in pair}
                on, off = times[None], times[knob]
                for i in range(width):
                    base[name][i].append(on[i])
                    ratios[(name, knob)][i].append(off[i] / on[i])
        print(f"round {round_ + 1}/{args.runs} done", file=sys.stderr)
        empty_trash()
        # Written after every round, so a run stopped early keeps the rounds it finished.
        path, rows = write_result(args, knobs, workloads, ratios, base, binary, round_ + 1)

    for knob in knobs:
        cells = "  ".join(
            f"{k} {v['value']:.3f} ({v['low']:.3f}–{v['high']:.3f})"
            for k, v in rows[knob_name(knob)].items() if isinstance(v, dict))
        print(f"{knob_name(knob):20} {cells}  pays: {rows[knob_name(knob)]['pays']}")
    if args.record:
        record.record(path)


if __name__ == "__main__":
    main()
