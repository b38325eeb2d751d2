"""PTX front-end throughput: tokenize + parse lines per second.

Measures ``ori_dialect.ptx.parse_ptx`` (tokenizer, parser and semantic checks)
on the largest PTX file under ``tests/ptx/inputs`` and on a synthetic
~50k-line PTX file made by replicating the body of that file's kernel into one
function (registers, labels and body-local variables renamed per copy), and
prints ptxas's own wall time on the same file (skipped when ptxas is absent).

    python benchmarks/bench_ptx_parse.py [--lines N] [--repeat R] [--keep PATH]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ori_dialect.ptx import ast, parse_ptx, tokenize

INPUTS = Path(__file__).resolve().parent.parent / "tests" / "ptx" / "inputs"


def synthesize(text: str, target_lines: int) -> str:
    """One kernel whose body is the first kernel's body replicated to ``target_lines``."""
    m = parse_ptx(text)
    entry = next(f for f in m.functions if f.kind == "entry" and f.body is not None)
    lines = text.splitlines()
    start = entry.line - 1
    open_i = next(i for i in range(start, len(lines)) if lines[i].strip() == "{")
    depth = 0
    close_i = open_i
    for i in range(open_i, len(lines)):
        s = lines[i].split("//")[0]
        depth += s.count("{") - s.count("}")
        if depth == 0:
            close_i = i
            break
    head = "\n".join(lines[: open_i + 1])
    body = "\n".join(lines[open_i + 1 : close_i])
    body = "\n".join(ln for ln in body.splitlines() if ln.strip() != "ret;")
    local_vars = [
        s.name for s in entry.body or () if isinstance(s, ast.VarDecl) and s.space != "param"
    ]
    copies: list[str] = []
    n_lines = len(lines) - (close_i - open_i)
    per_copy = body.count("\n") + 1
    i = 0
    while n_lines < target_lines:
        b = re.sub(r"%([a-z]+)(?=\d|<)", rf"%c{i}_\1", body)
        b = re.sub(r"\$L__BB(\w+)", rf"$L__BB\1_c{i}", b)
        for v in local_vars:
            b = re.sub(rf"\b{re.escape(v)}\b", f"{v}_c{i}", b)
        copies.append(b)
        n_lines += per_copy
        i += 1
    tail = "\n".join(lines[close_i:])
    return head + "\n" + "\n".join(copies) + "\n\tret;\n" + tail + "\n"


def bench(text: str, repeat: int) -> tuple[float, float, float]:
    """Best-of-``repeat`` seconds for tokenize alone and tokenize+parse, and lines."""
    n = text.count("\n") + 1
    best_tok = best_parse = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        tokenize(text)
        t1 = time.perf_counter()
        parse_ptx(text)
        t2 = time.perf_counter()
        best_tok = min(best_tok, t1 - t0)
        best_parse = min(best_parse, t2 - t1)
    return best_tok, best_parse, float(n)


def ptxas_time(path: Path) -> float | None:
    exe = shutil.which("ptxas")
    if exe is None:
        return None
    t0 = time.perf_counter()
    subprocess.run(
        [exe, "-arch=sm_80", str(path), "-o", "/dev/null"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return time.perf_counter() - t0


def report(label: str, path: Path, repeat: int) -> None:
    text = path.read_text()
    tok, parse, n = bench(text, repeat)
    print(f"{label}: {path.name}, {int(n)} lines")
    print(f"  tokenize only   : {tok * 1e3:9.2f} ms  {n / tok:12,.0f} lines/s")
    print(f"  tokenize + parse: {parse * 1e3:9.2f} ms  {n / parse:12,.0f} lines/s")
    pt = ptxas_time(path)
    if pt is None:
        print("  ptxas           : not installed, skipped")
    else:
        print(f"  ptxas -arch=sm_80 wall: {pt * 1e3:9.2f} ms  {n / pt:12,.0f} lines/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lines", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", type=Path, default=None, help="write the synthetic PTX here")
    args = ap.parse_args()
    largest = max(INPUTS.glob("*.ptx"), key=lambda p: p.stat().st_size)
    report("largest test PTX", largest, args.repeat)
    synth = synthesize(largest.read_text(), args.lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "synthetic.ptx"
        path.write_text(synth)
        report("synthetic PTX", path, max(1, args.repeat // 2))


if __name__ == "__main__":
    main()
