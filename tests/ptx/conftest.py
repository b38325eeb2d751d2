"""The library tests share one import and one ``ori-ptxas`` compile per
(file, target) (``test_library_examples._imported`` / ``_compiled``, cached
per process): each file's tests form one xdist group, so that under
``-n auto`` (with ``--dist loadgroup``, pyproject.toml) one worker compiles
a file once instead of every worker compiling it again (cub_device.ptx:
about 70 s)."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).name != "test_library_examples.py":
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        arch = params.get("arch")
        stem = params.get("stem")
        launch = params.get("launch")
        if stem is None and launch is not None:
            stem = Path(launch.file).stem
        if arch is not None and stem is not None:
            item.add_marker(pytest.mark.xdist_group(f"library-{stem}-{arch}"))
