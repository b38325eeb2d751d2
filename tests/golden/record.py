"""Rewrite the recorded outputs of the behaviour-preservation test.

    python -m tests.golden.record [SUBSTRING]

Only for a change that is meant to alter a listing, remark or figure: the
commit that re-records says which and why.
"""

from __future__ import annotations

import os
import sys
import time

from tests.golden import ptxas_digests
from tests.golden.cases import OUTPUTS, REPO, case_id, cases, recorded, run_case


def main(argv: list[str]) -> int:
    os.chdir(REPO)
    OUTPUTS.mkdir(exist_ok=True)
    only = argv[0] if argv else ""
    for path, pipeline in cases():
        if only not in case_id(path, pipeline):
            continue
        t = time.perf_counter()
        recorded(path, pipeline).write_text(run_case(path, pipeline))
        print(f"{case_id(path, pipeline)}: {time.perf_counter() - t:.2f}s", file=sys.stderr)
    # the other examples' ori-ptxas outputs, pinned by digest
    ptxas_digests.record("" if not only or "ptxas" in only else only)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
