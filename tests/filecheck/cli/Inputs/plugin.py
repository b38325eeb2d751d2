"""A test plugin for ``ori-opt --load-plugin``: one pass and one SM target."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass

import targets
from passes.registry import register_pass


@dataclass(frozen=True)
class CountOpsPass(ModulePass):
    """Records the number of ops in the module as the attribute ``test.<key>``."""

    name = "test-count-ops"

    key: str = "ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        n = sum(1 for _ in op.walk()) - 1
        op.attributes[f"test.{self.key}"] = IntegerAttr(n, i64)


register_pass("test-count-ops", lambda: CountOpsPass)
targets.register_target(
    dataclasses.replace(targets.get_target("sm_80"), name="sm_plug_81", sm=81),
    replace=True,
)
