"""The H200 runs of ``wgmma_probe.cu``, in and out of ``wgmma_h200.npz``.

Usage::

    python tests/interpreter/data/wgmma_npz.py jobs build/wgmma_jobs
        # cubins (ptxas 13.0) and inputs of the job file's launches
    # on the GPU, from build/ (wgmma_probe built there as wgmma_probe.cu says):
    #   OUT=DIR ./wgmma_probe wgmma_jobs/jobs.txt
    python tests/interpreter/data/wgmma_npz.py convert DIR

*Probe runs*: each ``FORM_sdS_mMODE.bin`` in DIR (A 64x16, B 16xN, C and D 64xN
per warpgroup, row-major, one uint32 per element) becomes the entries
``FORM_sdS_mMODE.{a,b,c,d}`` holding the first :func:`keep` warpgroups (none:
no entry), of each the first :data:`ROWS` rows of A, C and D (one warp's: the
rows are independent of each other) and all of B: A and B as uint16 bit
patterns, C and D as uint16 for an f16 accumulator and as uint32 for f32.
The fixture stays small (the H200 ran 90 runs, 1,382,400 outputs; the
analysis in ``test_wgmma_hardware.py``'s docstring covers them all).

*Launches* (the job file's): ``NAME.J.bin`` (argument ``J`` after the launch)
becomes ``NAME.J`` in its argument's dtype (the random-exponent runs, ``_e``,
and matmul_m64; the uniform ones, ``_u``, are not kept); the inputs are
:func:`launch_inputs` (fixed seeds), and a run whose inputs came back changed
is refused.

Entries already in the file are kept (a run in both is replaced);
``tests/interpreter/test_wgmma_hardware.py`` checks every one of them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent
ROOT = DATA.parents[2]
NPZ = DATA / "wgmma_h200.npz"
NAME = re.compile(r"^(bf16|f16)_(f32|f16)_n(\d+)_(ss|rs)(_neg)?_sd([01])_m(\d+)\.bin$")
ROWS = 16  # the rows kept of each warpgroup's A, C and D: its first warp's
SPECIAL = ("f16_f32_n8_ss", "f16_f32_n16_ss_neg", "bf16_f32_n8_rs", "f16_f16_n8_rs",
           "f16_f16_n16_rs_neg")  # forms whose mode 5 (sd1) is kept
SPECIAL_SD0 = ("f16_f32_n8_rs", "bf16_f32_n8_ss", "f16_f16_n8_ss")


def keep(form: str, sd: int, mode: int) -> int:
    """How many warpgroups of a run the fixture keeps (the first ones)."""
    if mode == 5:
        return 15 if sd and form in SPECIAL else 10 if not sd and form in SPECIAL_SD0 else 0
    if form.endswith("_n64_ss"):
        return 1 if mode == 4 else 0
    return 1 if mode == 4 or (sd, mode) == (1, 6) else 0

def _f16_uniform(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.uniform(-2, 2, n).astype(np.float16)


def _f16_exponents(rng: np.random.Generator, n: int) -> np.ndarray:
    """f16 of random sign, exponent -8..3 and mantissa."""
    bits = ((rng.integers(0, 2, n) << 15) | ((rng.integers(-8, 4, n) + 15) << 10)
            | rng.integers(0, 1024, n))
    return bits.astype(np.uint16).view(np.float16)


def _bf16_bits(rng: np.random.Generator, n: int, exponents: bool) -> np.ndarray:
    if exponents:
        bits = ((rng.integers(0, 2, n) << 15) | ((rng.integers(-8, 4, n) + 127) << 7)
                | rng.integers(0, 128, n))
        return bits.astype(np.uint16)
    return (rng.uniform(-2, 2, n).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def launch_inputs() -> dict[str, list[np.ndarray | int]]:
    """The arguments of every launch of the job file (outputs zeroed)."""
    sys.path.insert(0, str(ROOT))
    from examples.triton import launches as tr

    out: dict[str, list[np.ndarray | int]] = {}
    la = next(x for x in tr.LAUNCHES if x.kernel == "matmul_m64")
    args = la.make_args(np.random.default_rng(la.seed))
    out["matmul_m64"] = [args[0], args[1], np.zeros(64 * 32, np.float32),
                         *[int(x) for x in args[3:12]], np.zeros(4, np.uint8),
                         np.zeros(4, np.uint8)]
    rng = np.random.default_rng(20260)
    for tag, exps in (("u", False), ("e", True)):
        f16 = _f16_exponents if exps else _f16_uniform
        out[f"wgmma_f16_nosw_{tag}"] = [f16(rng, 64 * 48), f16(rng, 64 * 48),
                                        np.zeros(64 * 64, np.float32), 48]
        out[f"wgmma_bf16_sw128_{tag}"] = [_bf16_bits(rng, 64 * 64, exps),
                                          _bf16_bits(rng, 32 * 64, exps),
                                          np.zeros(64 * 32, np.float32)]
        out[f"wgmma_f16_sw64_mn_{tag}"] = [f16(rng, 64 * 32), f16(rng, 32 * 32),
                                           np.zeros(64 * 32, np.float32)]
        c = f16(rng, 64 * 32)
        out[f"wgmma_rs_f16acc_{tag}"] = [f16(rng, 64 * 16), f16(rng, 32 * 16), c,
                                         np.zeros(64 * 32, np.float16)]
    return out


LAUNCH_PTX = {"matmul_m64": ("examples/triton/ptx/sm_90a/matmul_m64.ptx", (1, 2), 4096)}
for _k in ("wgmma_f16_nosw", "wgmma_bf16_sw128", "wgmma_f16_sw64_mn", "wgmma_rs_f16acc"):
    LAUNCH_PTX[_k] = ("examples/wgmma/ptx/sm_90a/wgmma.ptx", (1, 1), 0)


def kernel_of(name: str) -> str:
    return name if name in LAUNCH_PTX else name.rsplit("_", 1)[0]


def jobs(where: Path) -> Path:
    """Cubins, input files and the job file (paths relative to ``where``'s parent,
    the directory ``wgmma_probe`` runs in)."""
    where.mkdir(parents=True, exist_ok=True)
    lines = []
    cubins: dict[str, Path] = {}
    for name, args in launch_inputs().items():
        kernel = kernel_of(name)
        ptx, (gx, gy), shared = LAUNCH_PTX[kernel]
        if ptx not in cubins:
            cubins[ptx] = where / (Path(ptx).stem + ".cubin")
            subprocess.run(["ptxas", "-arch=sm_90a", str(ROOT / ptx), "-o", str(cubins[ptx])],
                           check=True)
        toks = []
        for j, a in enumerate(args):
            if isinstance(a, int):
                toks.append(f"i:{a}")
            else:
                f = where / f"{name}.{j}.in"
                np.asarray(a).tofile(f)
                toks.append(f"b:{where.name}/{f.name}")
        lines.append(f"{where.name}/{cubins[ptx].name} {kernel} {gx} {gy} 128 {shared} {name} "
                     + " ".join(toks))
    job = where / "jobs.txt"
    job.write_text("\n".join(lines) + "\n")
    return job


def convert(bins: Path, npz: Path = NPZ) -> list[str]:
    """Merge the runs in ``bins`` into ``npz``; the run names added."""
    data = dict(np.load(npz)) if npz.exists() else {}
    added = []
    for path in sorted(bins.glob("*.bin")):
        m = NAME.match(path.name)
        if not m:
            continue
        n, f16_acc = int(m.group(3)), m.group(2) == "f16"
        sd, mode = int(m.group(6)), int(m.group(7))
        raw = np.fromfile(path, np.uint32)
        per = 64 * 16 + 16 * n + 2 * 64 * n
        if raw.size % per:
            raise ValueError(f"{path}: {raw.size} words, not a multiple of {per}")
        w = raw.size // per
        a, b, c, d = np.split(raw, np.cumsum([w * 64 * 16, w * 16 * n, w * 64 * n]))
        name = path.stem
        k = keep(name.split("_sd")[0], sd, mode)
        if not k:
            continue
        acc = np.uint16 if f16_acc else np.uint32
        data[f"{name}.a"] = a.reshape(w, 64, 16)[:k, :ROWS].astype(np.uint16)
        data[f"{name}.b"] = b.reshape(w, 16, n)[:k].astype(np.uint16)
        data[f"{name}.c"] = c.reshape(w, 64, n)[:k, :ROWS].astype(acc)
        data[f"{name}.d"] = d.reshape(w, 64, n)[:k, :ROWS].astype(acc)
        added.append(name)
    for name, args in launch_inputs().items():
        if name.endswith("_u") or not any(bins.glob(f"{name}.*.bin")):
            continue  # the uniform inputs' runs are not kept
        for j, a in enumerate(args):
            if isinstance(a, int):
                continue
            a = np.asarray(a)
            got = np.fromfile(bins / f"{name}.{j}.bin", a.dtype)
            if a.any() and not np.array_equal(got.view(np.uint8), a.view(np.uint8)):
                raise ValueError(f"{name}: argument {j} is not the input launch_inputs() gives")
            data[f"{name}.{j}"] = got
        added.append(name)
    np.savez_compressed(npz, **data)
    return added


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("jobs", "convert"):
        sys.exit("usage: wgmma_npz.py jobs DIR | convert DIR_WITH_BIN_FILES")
    if sys.argv[1] == "jobs":
        print(jobs(Path(sys.argv[2])))
    else:
        print("\n".join(convert(Path(sys.argv[2]))))
