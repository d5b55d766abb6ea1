#!/usr/bin/env python3
"""ab_variants.py RAW: the table of ab_variants.sh, from its JSON outputs.

Per option set: identical builds flagged (faster or slower), +1% and +2%
detected as slower (wrong sign: faster, in brackets), over the comparisons
that reached a verdict; the median half-width of the 95% interval (percent
of the ratio), the mean start-up (start_s) and the median clean blocks.
"""
import glob
import json
import os
import statistics as st
import sys


def main():
    raw = sys.argv[1]
    sets = {}
    for p in sorted(glob.glob(os.path.join(raw, "set-*"))):
        sets[p.rsplit("-", 1)[1]] = open(p).read().strip() or "(defaults)"
    cells = {}
    for p in glob.glob(os.path.join(raw, "ab-*.json")):
        _, _t, k, v = os.path.basename(p)[:-5].split("-")
        try:
            d = json.load(open(p))
        except (OSError, ValueError):
            continue
        for b in d.get("benchmarks", []):
            cells.setdefault((k, v), []).append(b)
    print("| options | A/A flagged | +1% detected | +2% detected | half-width | start-up | clean blocks |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(sets, key=int):
        row = [f"`{sets[k]}`"]
        hw, start, blocks = [], [], []
        for v in ["0b", "1", "2"]:
            bs = cells.get((k, v), [])
            ok = [b for b in bs if b.get("verdict") in ("same", "slower", "faster")]
            up = sum(b["verdict"] == "slower" for b in ok)
            down = sum(b["verdict"] == "faster" for b in ok)
            row.append(f"{up + down}/{len(ok)}" if v == "0b" else
                       f"{up}/{len(ok)}" + (f" ({down})" if down else ""))
            hw += [50 * (b["ci_hi"] - b["ci_lo"]) / b["ratio"] for b in ok]
            start += [b["start_s"] for b in bs if b.get("start_s") is not None]
            blocks += [b["n_clean_blocks"] for b in bs]
        row.append(f"{st.median(hw):.2f}%" if hw else "-")
        row.append(f"{st.mean(start):.3f} s" if start else "-")
        row.append(f"{st.median(blocks):.0f}" if blocks else "-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
