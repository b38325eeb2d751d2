"""On-the-fly SSA construction (Braun, Buchwald, Hack, Leissa, Mallon, Zwinkau:
"Simple and Efficient Construction of Static Single Assignment Form", CC 2013).

PTX registers are reassignable variables; Ori values are SSA.  The lowering
fills blocks in order and calls :meth:`SSABuilder.write` / :meth:`read` for
every register access.  A block is *sealed* once all its predecessors are
filled; reads in unsealed blocks create incomplete phis that get their
operands when the block is sealed.  Phis are block arguments; their operands
are kept here, per CFG edge, and become branch operands only in
:meth:`SSABuilder.edge_args`, after trivial phis (all operands the same value
or the phi itself) were replaced and dead phis (no use outside other dead
phis) were deleted -- so the result has neither.

Invariant the caller keeps: every predecessor edge of every block is known
before the first read (the PTX CFG is built before lowering starts), and
unreachable blocks are not lowered.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Block, BlockArgument, OpResult, SSAValue

Edge = tuple[Block, int]
"""A CFG edge: (predecessor block, successor slot of its terminator)."""


@dataclass(eq=False)
class Phi:
    block: Block
    var: Hashable
    arg: BlockArgument
    operands: dict[Edge, SSAValue] = field(default_factory=dict)
    users: set[Phi] = field(default_factory=set)
    alive: bool = True


class SSABuilder:
    """Variables are any hashable keys; ``type_of(var)`` gives the register type
    of a phi for it and ``undef(var)`` a value for a read with no reaching
    definition (an ``ori.undef`` in the entry block)."""

    def __init__(
        self,
        preds: dict[Block, list[Edge]],
        type_of: Callable[[Hashable], Attribute],
        undef: Callable[[Hashable], SSAValue],
    ) -> None:
        self.preds = preds
        self.type_of = type_of
        self.undef = undef
        # Current definitions per variable, keyed by id(block): Block hashes
        # through a Python-level __hash__, and these are the hottest lookups
        # of the import.  Every block stays alive in ``preds``.
        self.defs: dict[Hashable, dict[int, SSAValue]] = {}
        self.sealed: set[Block] = set()
        self.incomplete: dict[Block, list[Phi]] = {}
        self.phis: dict[BlockArgument, Phi] = {}
        self.replaced: dict[SSAValue, SSAValue] = {}

    # ------------------------------------------------------------------
    def resolve(self, v: SSAValue) -> SSAValue:
        """``v`` after trivial-phi replacement (path-compressed)."""
        if type(v) is OpResult:  # only phis (block arguments) are ever replaced
            return v
        r = self.replaced.get(v)
        if r is None:
            return v
        root = self.resolve(r)
        self.replaced[v] = root
        return root

    def write(self, var: Hashable, block: Block, value: SSAValue) -> None:
        d = self.defs.get(var)
        if d is None:
            self.defs[var] = {id(block): value}
        else:
            d[id(block)] = value

    def read(self, var: Hashable, block: Block) -> SSAValue:
        d = self.defs.get(var)
        if d is not None:
            v = d.get(id(block))
            if v is not None:
                return v if type(v) is OpResult else self.resolve(v)
        return self._read_recursive(var, block)

    def _read_recursive(self, var: Hashable, block: Block) -> SSAValue:
        preds = self.preds[block]
        if block not in self.sealed:
            phi = self._new_phi(block, var)
            self.incomplete.setdefault(block, []).append(phi)
            val: SSAValue = phi.arg
        elif not preds:
            val = self.undef(var)
        elif len(preds) == 1:
            val = self.read(var, preds[0][0])
        else:
            phi = self._new_phi(block, var)
            self.write(var, block, phi.arg)
            val = self._add_operands(phi)
        # Removing a trivial phi can make other phis trivial in turn (its users,
        # recursively), so the value just computed may itself have been replaced.
        val = self.resolve(val)
        self.write(var, block, val)
        return val

    def seal(self, block: Block) -> None:
        self.sealed.add(block)
        for phi in self.incomplete.pop(block, []):
            if phi.alive:
                self._add_operands(phi)

    # ------------------------------------------------------------------
    def _new_phi(self, block: Block, var: Hashable) -> Phi:
        arg = block.insert_arg(self.type_of(var), len(block.args))
        phi = Phi(block, var, arg)
        self.phis[arg] = phi
        return phi

    def _add_operands(self, phi: Phi) -> SSAValue:
        for edge in self.preds[phi.block]:
            v = self.read(phi.var, edge[0])
            phi.operands[edge] = v
            other = self.phis.get(v)  # type: ignore[call-overload]
            if other is not None:
                other.users.add(phi)
        return self._try_remove_trivial(phi)

    def _try_remove_trivial(self, phi: Phi) -> SSAValue:
        same: SSAValue | None = None
        for v in phi.operands.values():
            v = self.resolve(v)
            if v is same or v is phi.arg:
                continue
            if same is not None:
                return phi.arg
            same = v
        if same is None:
            same = self.undef(phi.var)
        phi.alive = False
        del self.phis[phi.arg]
        self.replaced[phi.arg] = same
        phi.arg.replace_all_uses_with(same)
        phi.block.erase_arg(phi.arg)
        for user in phi.users:
            if user is not phi and user.alive:
                self._try_remove_trivial(user)
        return same

    # ------------------------------------------------------------------
    def finish(self, roots: Iterable[SSAValue] = ()) -> None:
        """Delete dead phis: those whose values reach no real operation.

        ``roots`` are values used by operations not created yet (the
        terminators' guards and return values).  Call after every block is
        filled and sealed, before :meth:`edge_args`.
        """
        live: set[Phi] = set()
        work = [p for p in self.phis.values() if p.arg.first_use is not None]
        for v in roots:
            p = self.phis.get(self.resolve(v))  # type: ignore[call-overload]
            if p is not None:
                work.append(p)
        while work:
            p = work.pop()
            if p in live:
                continue
            live.add(p)
            for v in p.operands.values():
                q = self.phis.get(self.resolve(v))  # type: ignore[call-overload]
                if q is not None and q not in live:
                    work.append(q)
        for p in list(self.phis.values()):
            if p not in live:
                p.alive = False
                del self.phis[p.arg]
                p.block.erase_arg(p.arg)

    def edge_args(self, src: Block, slot: int, dest: Block) -> list[SSAValue]:
        """Operands the edge ``src --slot--> dest`` passes to ``dest``'s phis."""
        out: list[SSAValue] = []
        for arg in dest.args:
            phi = self.phis[arg]
            out.append(self.resolve(phi.operands[(src, slot)]))
        return out
