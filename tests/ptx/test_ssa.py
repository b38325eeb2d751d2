"""SSA construction of the PTX importer (Braun et al.): phis only where needed.

Properties checked on every imported function: every block argument is used
(no dead phis) and no block argument is trivial (all incoming values equal,
ignoring the argument itself).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import Block, SSAValue

from ori_dialect.ops.control import BraOp, PragmaOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.lower.ssa import SSABuilder
from ori_dialect.ptx.parser import PtxSyntaxError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ptx"


def incoming(func: FuncOp) -> dict[SSAValue, list[SSAValue]]:
    """Block argument -> the values its predecessors pass."""
    out: dict[SSAValue, list[SSAValue]] = {a: [] for b in func.body.blocks for a in b.args}
    for b in func.body.blocks:
        t = b.last_op
        if isinstance(t, BraOp):
            for i, dest in enumerate([t.taken, t.fallthrough]):
                if dest is None:
                    continue
                for a, v in zip(dest.args, t.edge_args(i)):
                    out[a].append(v)
    return out


def assert_minimal_ssa(func: FuncOp) -> None:
    entry = func.body.first_block
    for arg, vals in incoming(func).items():
        assert isinstance(arg.owner, Block)
        if arg.owner is entry:
            continue
        assert arg.first_use is not None, f"dead phi {arg} in @{func.sym_name.data}"
        others = {v for v in vals if v is not arg}
        assert len(others) > 1, f"trivial phi {arg} in @{func.sym_name.data}: {others}"


HEAD = ".version 9.0\n.target sm_80\n.address_size 64\n"


def kernel(body: str, params: str = ".param .u64 k_param_0") -> str:
    return HEAD + f".visible .entry k({params})\n{{\n{body}\n}}\n"


def test_ssa_builder_diamond_and_loop() -> None:
    """The builder alone: a diamond merges two definitions into one phi; a loop
    whose body does not redefine the variable needs none."""
    from xdsl.ir import Region

    from ori_dialect.builder import PT
    from ori_dialect.ir.registers import R32Type
    from ori_dialect.ops.integer import MovOp

    entry, left, right, join, head = Block(), Block(), Block(), Block(), Block()
    Region([entry, left, right, join, head])
    preds = {entry: [], left: [(entry, 0)], right: [(entry, 1)],
             join: [(left, 0), (right, 0)], head: [(join, 0), (head, 0)]}
    undefs: list[SSAValue] = []

    def undef(var: object) -> SSAValue:
        op = MovOp.make([0])
        entry.add_op(op)
        undefs.append(op.results[0])
        return op.results[0]

    ssa = SSABuilder(preds, lambda v: R32Type.unallocated(), undef)
    ssa.seal(entry)
    x0 = MovOp.make([1])
    entry.add_op(x0)
    ssa.write("x", entry, x0.results[0])
    for blk, val in ((left, 2), (right, 3)):
        ssa.seal(blk)
        op = MovOp.make([val])
        blk.add_op(op)
        ssa.write("x", blk, op.results[0])
    ssa.seal(join)
    merged = ssa.read("x", join)
    assert merged in join.args
    # head is not sealed yet: the read makes an incomplete phi that turns out trivial
    v = ssa.read("x", head)
    ssa.seal(head)
    assert ssa.resolve(v) is merged
    assert not head.args
    assert ssa.read("y", entry) is undefs[0]
    ssa.finish()
    assert len(join.args) == 0  # nothing used the phi: finish() deleted it
    _ = PT


LOOP = kernel("""
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	mov.u32 %r2, 0;
	mov.u32 %r3, 7;
	mov.u32 %r9, 5;
$L_loop:
	.pragma "nounroll";
	add.s32 %r2, %r2, %r1;
	mov.u32 %r9, %r2;
	add.s32 %r1, %r1, -1;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L_loop;
	st.global.u32 [%rd2], %r2;
	st.global.u32 [%rd2+4], %r3;
	ret;
""")


def test_loop_carried_values_become_block_arguments() -> None:
    m = import_ptx(LOOP, "loop.ptx")
    m.verify()
    f = next(iter(m.ops))
    assert isinstance(f, FuncOp)
    assert_minimal_ssa(f)
    blocks = list(f.body.blocks)
    header = next(b for b in blocks if any(isinstance(o, PragmaOp) for o in b.ops))
    # %r1 and %r2 are loop-carried; %r3 is loop-invariant; %r9 is redefined but dead
    assert len(header.args) == 2
    assert isinstance(header.first_op, PragmaOp) and header.first_op.text.data == "nounroll"
    from ori_dialect.interpreter import run_kernel

    for n in (1, 2, 5):
        buf = np.array([n, 0], dtype=np.uint32)
        out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [buf])
        assert list(out[0]) == [n * (n + 1) // 2, 7]


def test_nested_scopes_are_distinct_variables() -> None:
    src = kernel("""
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 11;
	{
	.reg .b32 %r<3>;
	mov.u32 %r1, 22;
	st.global.u32 [%rd2+4], %r1;
	}
	st.global.u32 [%rd2], %r1;
	ret;
""")
    m = import_ptx(src, "scope.ptx")
    m.verify()
    from ori_dialect.interpreter import run_kernel

    out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [np.zeros(2, dtype=np.uint32)])
    assert list(out[0]) == [11, 22]


def test_guarded_load_keeps_old_value() -> None:
    src = kernel("""
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	mov.u32 %r2, 99;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 ld.global.u32 %r2, [%rd2+4];
	st.global.u32 [%rd2+8], %r2;
	ret;
""")
    m = import_ptx(src, "guard.ptx")
    m.verify()
    from ori_dialect.interpreter import run_kernel

    for flag, want in ((1, 5), (0, 99)):
        out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [np.array([flag, 5, 0], dtype=np.uint32)])
        assert out[0][2] == want


def test_vector_and_shared_and_local_accesses() -> None:
    src = HEAD + """
.visible .entry k(.param .u64 k_param_0)
{
	.local .align 8 .b8 __local_depot0[16];
	.reg .b32 %r<9>;
	.reg .b64 %rd<6>;
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.shared .align 16 .b8 buf[64];
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];
	st.shared.v4.u32 [buf+16], {%r4, %r3, %r2, %r1};
	ld.shared.v2.u32 {%r5, %r6}, [buf+24];
	st.local.v2.u32 [%SPL+8], {%r6, %r5};
	ld.u32 %r7, [%SP+8];
	mov.u64 %rd3, buf;
	cvta.shared.u64 %rd4, %rd3;
	ld.u32 %r8, [%rd4+16];
	st.global.v2.u32 [%rd2+16], {%r7, %r8};
	ret;
}
"""
    m = import_ptx(src, "vec.ptx")
    m.verify()
    from ori_dialect.interpreter import run_kernel

    out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [np.array([1, 2, 3, 4, 0, 0], dtype=np.uint32)])
    # shared: [4,3,2,1] at 16; v2 at 24 = (2,1); local[8] = (1,2); r7 = 1; r8 = shared[16] = 4
    assert list(out[0][4:]) == [1, 4]


def test_device_function_call_with_params_and_return() -> None:
    src = HEAD + """
.func (.param .b64 func_retval0) addmul(.param .b32 a, .param .b64 b)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	ld.param.u32 %r1, [a];
	ld.param.u64 %rd1, [b];
	cvt.u64.u32 %rd2, %r1;
	add.s64 %rd3, %rd1, %rd2;
	st.param.b64 [func_retval0], %rd3;
	ret;
}
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	ld.global.u64 %rd3, [%rd2+8];
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b64 param1;
	st.param.b64 [param1], %rd3;
	.param .b64 retval0;
	call.uni (retval0), addmul, (param0, param1);
	ld.param.b64 %rd4, [retval0];
	}
	st.global.u64 [%rd2+16], %rd4;
	ret;
}
"""
    m = import_ptx(src, "call.ptx")
    m.verify()
    from ori_dialect.interpreter import run_kernel

    buf = np.array([7, 0, 0x1_0000_0005, 0], dtype=np.uint64).view(np.uint32)
    buf = np.array([7, 0, 5, 1, 0, 0], dtype=np.uint32)
    out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [buf])
    assert int(out[0][4]) | (int(out[0][5]) << 32) == 0x1_0000_000C


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("\tmov.u32 %r9, 1;\n\tret;", "undefined register '%r9'"),
        ("\tbra $L_nowhere;\n\tret;", "undefined label"),
        ("\tfrobnicate.u32 %r1, %r1;\n\tret;", "frobnicate"),
        ("\t.reg .b64 %rd<2>;\n\tmov.u32 %r1, %rd1;\n\tret;", "arguments mismatch"),
        ("\tld.param.u64 %r1, [k_param_0];\n\tst.param.u32 [k_param_0], %r1;\n\tret;",
         "read-only"),
    ],
)
def test_diagnostics_name_the_line(body: str, message: str) -> None:
    src = kernel("\t.reg .b32 %r<3>;\n" + body)
    with pytest.raises(PtxSyntaxError) as e:
        import_ptx(src, "bad.ptx")
    text = str(e.value)
    assert text.startswith("bad.ptx:") and ": error: " in text
    assert message in text


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("sm_*/*.ptx")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_examples_have_minimal_ssa(path: Path) -> None:
    try:
        m = import_ptx(path.read_text(), path.name)
    except PtxSyntaxError as e:
        if "unsupported PTX instruction" in str(e):
            pytest.fail(f"{path.name}: {e}")
        raise
    for f in m.ops:
        if isinstance(f, FuncOp):
            assert_minimal_ssa(f)


def test_phi_used_only_by_a_return_survives() -> None:
    """A value merged at the return block and used only by ``ret`` (created
    after dead-phi removal) keeps its phi."""
    ptx = HEAD + """
.func (.param .b32 rv) f(.param .b32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<5>;
	mov.u32 %r1, 0;
	ld.param.u32 %r2, [n];
	setp.eq.s32 %p1, %r2, 0;
	mov.u32 %r3, 0;
	st.param.b32 [rv], %r3;
	@%p1 bra DONE;
LOOP:
	add.s32 %r1, %r1, %r2;
	add.s32 %r2, %r2, -1;
	setp.ne.s32 %p2, %r2, 0;
	@%p2 bra LOOP;
	st.param.b32 [rv], %r1;
DONE:
	ret;
}
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	ld.global.u32 %r1, [%rd1];
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r1;
	call.uni (r0), f, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd1+4], %r2;
	ret;
}
"""
    m = import_ptx(ptx, "ret.ptx")
    m.verify()
    from ori_dialect.interpreter import run_kernel

    for n in (0, 1, 4):
        out = run_kernel(m, "k", (1, 1, 1), (1, 1, 1), [np.array([n, 0], dtype=np.uint32)])
        assert out[0][1] == n * (n + 1) // 2
    for f in m.ops:
        if isinstance(f, FuncOp):
            assert_minimal_ssa(f)
