"""Tests for the PTX front end (``ori_dialect.ptx``): tokenizer, parser, diagnostics.

The inputs under ``tests/ptx/inputs/`` are CUDA kernels with the PTX nvcc 13.0
made from them (``nvcc -arch=sm_80 -lineinfo -ptx``; ``*_sm90.ptx`` with
``-arch=sm_90``).  The PTX is committed so these tests run without nvcc.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from ori_dialect.ptx import PtxSyntaxError, ast, parse_ptx, tokenize
from ori_dialect.ptx.lexer import Lexed, classify_number

INPUTS = Path(__file__).resolve().parent / "inputs"
PTX_FILES = sorted(INPUTS.glob("*.ptx"))


def _parse(name: str) -> ast.Module:
    path = INPUTS / name
    return parse_ptx(path.read_text(), str(path))


def _instrs(fn: ast.Function) -> list[ast.Instruction]:
    return [s for s in fn.statements() if isinstance(s, ast.Instruction)]


def _entry(m: ast.Module) -> ast.Function:
    return next(f for f in m.functions if f.kind == "entry")


@pytest.mark.parametrize("path", PTX_FILES, ids=lambda p: p.name)
def test_parse_all_inputs(path: Path) -> None:
    m = parse_ptx(path.read_text(), str(path))
    assert m.version == "9.0"
    assert m.address_size == 64
    assert m.targets in (("sm_80",), ("sm_90",))
    assert any(f.kind == "entry" and f.body for f in m.functions)
    assert m.files  # .file directives come at the end of nvcc's output


def test_tokenizer_kinds() -> None:
    toks = tokenize('@!%p1 ld.global.v2.f32 {%f1, %f2}, [%rd1+-8]; // c\n.pragma "nounroll";')
    kinds = [k for k, _, _ in toks]
    assert kinds[:6] == ["P", "P", "REG", "ID", "P", "REG"]
    assert ("ID", "ld.global.v2.f32", 3) in toks
    assert kinds[-3:-1] == ["STR", "P"] and kinds[-1] == "EOF"
    nums = [
        t for k, t, _ in tokenize("0f3F800000 0d3FF0000000000000 1.5 0x10 7U 1e-3") if k == "INT"
    ]
    assert nums == ["0f3F800000", "0d3FF0000000000000", "1.5", "0x10", "7U", "1e-3"]
    assert [classify_number(n) for n in nums] == ["f32", "f64", "float", "int", "int", "float"]
    lexed = Lexed("a /* x\n y */ b // c\n  %r1, %r1")
    assert [t for _, t, _ in lexed.toks] == ["a", "b", "%r1", ",", "%r1", ""]
    assert [lexed.line_col(i) for i in range(5)] == [(1, 1), (2, 7), (3, 3), (3, 6), (3, 8)]


def test_arith_widths() -> None:
    m = _parse("arith.ptx")
    fn = _entry(m)
    assert fn.name.startswith("_Z5arith")
    assert len(fn.params) == 7 and all(p.type == "u64" for p in fn.params)
    regs = {d.name: (d.type, d.count) for d in fn.statements() if isinstance(d, ast.RegDecl)}
    assert regs["%r"][0] == "b32" and regs["%rd"][0] == "b64" and regs["%fd"][0] == "f64"
    ops = {(i.opcode, i.modifiers) for i in _instrs(fn)}
    assert ("mul", ("lo", "s64")) in ops
    assert any(o == "div" for o, _ in ops)
    assert ("popc", ("b32",)) in ops and ("clz", ("b32",)) in ops
    ld16 = [i for i in _instrs(fn) if i.opcode == "ld" and i.modifiers[-1] in ("s16", "u16")]
    assert ld16
    mulf = next(
        i for i in _instrs(fn) if i.opcode == "mul" and i.modifiers == ("f32",) or i.opcode == "fma"
    )
    assert mulf.loc is not None and mulf.loc.file == 1


def test_immediates() -> None:
    m = _parse("mixed.ptx")
    fn = _entry(m)
    imms = [o for i in _instrs(fn) for o in i.operands if isinstance(o, ast.Immediate)]
    one = next(o for o in imms if o.text == "0f3F800000")
    assert one.value == 1.0 and one.kind == "f32"
    assert any(o.value == -1 and o.kind == "int" for o in imms)
    m2 = _parse("arith.ptx")
    d = [
        o
        for i in _instrs(_entry(m2))
        for o in i.operands
        if isinstance(o, ast.Immediate) and o.kind == "f64"
    ]
    assert any(o.value == 3.0 for o in d)


def test_loop_pragma_nounroll() -> None:
    fn = _entry(_parse("loop.ptx"))
    stmts = fn.statements()
    pragmas = [s for s in stmts if isinstance(s, ast.Pragma)]
    assert len(pragmas) == 2 and all(p.text == "nounroll" for p in pragmas)
    labels = {s.name for s in stmts if isinstance(s, ast.Label)}
    # the pragma sits right after a loop header label
    idx = stmts.index(pragmas[0])
    assert isinstance(stmts[idx - 1], ast.Label)
    bras = [i for i in _instrs(fn) if i.opcode == "bra"]
    assert bras and all(isinstance(b.operands[0], ast.LabelRef) for b in bras)
    assert {b.operands[0].name for b in bras} <= labels  # type: ignore[union-attr]


def test_shared_arrays() -> None:
    fn = _entry(_parse("shared.ptx"))
    shared = [s for s in fn.statements() if isinstance(s, ast.VarDecl) and s.space == "shared"]
    assert {(v.type, v.dims) for v in shared} == {("b8", (2048,)), ("b8", (8448,))}
    assert {v.align for v in shared} == {4, 8}
    st = [i for i in _instrs(fn) if i.opcode == "st" and i.modifiers[0] == "shared"]
    assert st and isinstance(st[0].operands[0], ast.Address)
    bar = next(i for i in _instrs(fn) if i.opcode == "bar")
    assert bar.modifiers == ("sync",) and bar.operands == (ast.Immediate(0, "0"),)


def test_calls_params_and_prototype() -> None:
    m = _parse("calls.ptx")
    mk = next(f for f in m.functions if f.name == "_Z2mkifxd")
    assert mk.kind == "func" and mk.body is not None
    assert [p.type for p in mk.params] == ["b32", "b32", "b64"]
    (ret,) = mk.return_params
    assert ret.name == "func_retval0" and ret.align == 4 and ret.dims == (8,)
    proto = [f for f in m.functions if f.body is None]
    assert proto and proto[0].name == "_Z2sqi"
    table = next(g for g in m.globals if isinstance(g, ast.VarDecl) and g.name == "table")
    assert table.initializer == (ast.Symbol("_Z2sqi"),)
    fn = _entry(m)
    calls = [s for s in fn.statements() if isinstance(s, ast.Call)]
    assert len(calls) == 4
    c0 = calls[0]
    assert c0.modifiers == ("uni",) and c0.target == ast.Symbol("_Z2mkifxd")
    assert c0.returns == (ast.Symbol("retval0"),)
    assert c0.args == (ast.Symbol("param0"), ast.Symbol("param1"), ast.Symbol("param2"))
    ind = calls[2]
    assert isinstance(ind.target, ast.Register) and ind.prototype == "prototype_2"
    cp = next(s for s in fn.statements() if isinstance(s, ast.CallProto))
    assert cp.name == "prototype_2" and len(cp.params) == 1 and len(cp.return_params) == 1
    assert calls[3].returns == () and calls[3].target == ast.Symbol("_Z3diei")
    blocks = [s for s in fn.body or () if isinstance(s, ast.Block)]
    assert len(blocks) == 4
    params = [s for s in blocks[0].body if isinstance(s, ast.VarDecl) and s.space == "param"]
    assert [p.name for p in params] == ["param0", "param1", "param2", "retval0"]
    st = next(i for i in _instrs(fn) if i.opcode == "st" and i.modifiers[0] == "param")
    assert st.operands[0] == ast.Address(ast.Symbol("param0"), 0)


def test_vectors() -> None:
    fn = _entry(_parse("vec.ptx"))
    v4 = [i for i in _instrs(fn) if "v4" in i.modifiers]
    assert v4
    ld = next(i for i in v4 if i.opcode == "ld")
    vec = ld.operands[0]
    assert isinstance(vec, ast.Vector) and len(vec.elements) == 4
    assert all(isinstance(e, ast.Register) for e in vec.elements)
    assert isinstance(ld.operands[1], ast.Address)
    assert any("v2" in i.modifiers and i.modifiers[-1] == "f64" for i in _instrs(fn))


def test_atomics() -> None:
    fn = _entry(_parse("atomics.ptx"))
    atoms = {i.modifiers for i in _instrs(fn) if i.opcode in ("atom", "red")}
    flat = {m for mods in atoms for m in mods}
    assert {"add", "max", "cas", "exch", "and", "or", "xor", "inc"} <= flat
    assert any(mods[-1] == "f64" for mods in atoms)
    cas = next(i for i in _instrs(fn) if i.opcode == "atom" and "cas" in i.modifiers)
    assert len(cas.operands) == 4


def test_shfl_and_vote() -> None:
    for name in ("shfl.ptx", "shfl_sm90.ptx"):
        fn = _entry(_parse(name))
        sh = [i for i in _instrs(fn) if i.opcode == "shfl"]
        assert {i.modifiers[1] for i in sh} >= {"down", "bfly", "up"}
        d = sh[0].operands[0]
        assert isinstance(d, ast.Register) and d.pair is not None and d.pair.startswith("%p")
        assert any(i.opcode == "vote" for i in _instrs(fn))


def test_predicates_guards_launch_bounds() -> None:
    fn = _entry(_parse("preds.ptx"))
    assert fn.directive("maxntid") == (128, 1, 1)
    assert fn.directive("minnctapersm") == (4,)
    guarded = [i for i in _instrs(fn) if i.guard is not None]
    assert guarded and all(g.guard[0].startswith("%p") for g in guarded)  # type: ignore[index]
    assert any(i.opcode == "setp" for i in _instrs(fn))
    assert any(i.opcode == "selp" for i in _instrs(fn))
    m = _parse("mixed.ptx")
    k = _entry(m)
    assert k.directive("maxntid") == (256, 1, 1) and k.directive("minnctapersm") == (2,)
    sm90 = _parse("noreturn_maxnreg_sm90.ptx")
    assert _entry(sm90).directive("maxnreg") == (40,)


def test_const_global_initializers() -> None:
    m = _parse("consts.ptx")
    gl = {g.name: g for g in m.globals if isinstance(g, ast.VarDecl)}
    ctab = gl["ctab"]
    assert ctab.space == "const" and ctab.type == "b8" and ctab.dims == (32,)
    assert (
        isinstance(ctab.initializer, tuple) and len(ctab.initializer) == 29
    )  # nvcc drops trailing zeros
    assert ctab.initializer[4] == ast.Immediate(2, "2")
    assert gl["cd"].space == "const" and gl["cd"].align == 8
    assert gl["gtab"].space == "global"
    assert gl["gbig"].initializer == ast.Immediate(81985529216486895, "81985529216486895")


def test_source_locations() -> None:
    m = _parse("mixed.ptx")
    assert m.files[1].endswith("mixed.cu") or m.files[1].endswith("k1.cu")
    fn = _entry(m)
    sh = next(i for i in _instrs(fn) if i.opcode == "shfl")
    assert sh.loc is not None and sh.loc.file == 2
    assert sh.loc.inlined_at == ast.SourceLoc(1, 13, 3)
    ptx_line = (INPUTS / "mixed.ptx").read_text().splitlines()[sh.line - 1]
    assert ptx_line.strip().startswith("shfl.sync.idx.b32")
    assert sh.col == ptx_line.index("shfl") + 1
    ret = [i for i in _instrs(fn) if i.opcode == "ret"][-1]
    assert ret.loc == ast.SourceLoc(1, 16, 1)


def test_handwritten_directives() -> None:
    src = """
.version 8.5
.target sm_90
.address_size 64
.extern .func (.param .b32 r) ext (.param .b32 a) .noreturn;
.visible .entry k(.param .u64 .ptr .global .align 8 p, .param .align 16 .b8 s[32])
.reqntid 64, 2
.maxnreg 32
.pragma "nounroll";
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>, x;
    .local .align 4 .b8 buf[16];
    mov.u32 %r1, %tid.y;
    mov.u32 x, %r1;
    setp.eq.u32 %p1, x, 0;
    @!%p1 bra.uni DONE;
    st.local.v2.u32 [buf+8], {%r1, x};
    not.pred %p0, %p1;
DONE:
    ret;
}
"""
    m = parse_ptx(src, "h.ptx")
    ext = m.functions[0]
    assert ext.linkage == "extern" and ext.noreturn and ext.body is None
    k = m.functions[1]
    # `.align` after `.ptr` is the pointee's: the parameter keeps its natural alignment
    assert k.params[0].ptr_space == "global" and k.params[0].ptr_align == 8
    assert k.params[0].align is None
    assert k.params[1].dims == (32,)
    assert k.directive("reqntid") == (64, 2) and k.directive("maxnreg") == (32,)
    assert k.directive("pragma") == ("nounroll",)
    bra = next(i for i in _instrs(k) if i.opcode == "bra")
    assert bra.guard == ("%p1", True) and bra.modifiers == ("uni",)
    st = next(i for i in _instrs(k) if i.opcode == "st")
    assert st.operands[0] == ast.Address(ast.Symbol("buf"), 8)
    assert st.operands[1] == ast.Vector((ast.Register("%r1"), ast.Register("x")))


# -----------------------------------------------------------------------------
# Diagnostics

HEADER = ".version 9.0\n.target sm_80\n.address_size 64\n"


def _err(body: str) -> str:
    with pytest.raises(PtxSyntaxError) as ei:
        parse_ptx(HEADER + body, "bad.ptx")
    return str(ei.value)


def _fn(lines: str) -> str:
    return ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n" + lines + "ret;\n}\n"


def test_error_undefined_register() -> None:
    msg = _err(_fn("add.s32 %r1, %r2, %r4;\n"))
    assert msg.startswith("bad.ptx:8:19: error: undefined register '%r4'")
    assert msg.splitlines()[1] == "add.s32 %r1, %r2, %r4;"
    assert msg.splitlines()[2] == " " * 18 + "^"
    assert _err(_fn("mov.u32 %r1, %qq;\n")).startswith("bad.ptx:8:14: error: undefined register")
    # a register declared in a nested block is out of scope after it
    assert "undefined register '%t'" in _err(_fn("{\n.reg .b32 %t;\n}\nmov.u32 %r1, %t;\n"))


def test_error_undefined_label() -> None:
    msg = _err(_fn("@%p1 bra $L__nowhere;\n"))
    assert msg.startswith("bad.ptx:8:10: error: undefined label '$L__nowhere'")


def test_error_undefined_symbol() -> None:
    msg = _err(_fn("ld.global.u32 %r1, [nosuch+4];\n"))
    assert msg.startswith("bad.ptx:8:21: error: undefined symbol 'nosuch'")


def test_error_unknown_directive() -> None:
    assert _err(".bogus 1;\n").startswith("bad.ptx:4:1: error: unknown directive '.bogus'")
    assert _err(_fn(".frob %r1;\n")).startswith("bad.ptx:8:1: error: unknown directive '.frob'")


def test_error_bad_vector_width() -> None:
    msg = _err(_fn("ld.global.v4.u32 {%r1, %r2}, [0];\n"))
    assert msg.startswith("bad.ptx:8:1: error: bad vector width: '.v4' needs 4 elements, found 2")
    assert "bad vector width '.v3'" in _err(_fn("ld.global.v3.u32 {%r1, %r2, %r3}, [0];\n"))
    assert "needs a '.v2' modifier" in _err(_fn("st.global.u32 [0], {%r1, %r2};\n"))


def test_error_type_mismatch() -> None:
    msg = _err(_fn("@%r1 bra L;\nL:\n"))
    assert msg.startswith("bad.ptx:8:2: error: type mismatch: guard '%r1' is .b32, not .pred")
    assert "type mismatch: setp destination" in _err(_fn("setp.eq.s32 %r1, %r2, 0;\n"))


def test_error_truncated() -> None:
    text = (INPUTS / "loop.ptx").read_text()
    cut = text[: text.index("$L__BB0_2:")]
    with pytest.raises(PtxSyntaxError, match=r"^t\.ptx:\d+:\d+: error: unexpected end of file"):
        parse_ptx(cut, "t.ptx")
    assert re.match(r"bad\.ptx:\d+:\d+: error: expected ';'", _err(_fn("mov.u32 %r1, %r2\n")))


def test_error_deep_nesting() -> None:
    assert "nested too deeply" in _err(_fn("{" * 5000))
    assert "nested too deeply" in _err(".global .b32 x[1] = " + "{" * 5000)
    assert "invalid number '0128'" in _err(".global .b32 x = 0128;")


def test_error_is_diagnostic_exception() -> None:
    from xdsl.utils.exceptions import DiagnosticException

    with pytest.raises(DiagnosticException):
        parse_ptx(".version 9.0\n.target sm_80\n.entry")


_MUTATIONS = ("truncate", "drop", "dup", "swap")


def _mutate(text: str, rng: random.Random) -> str:
    toks = [t for t in tokenize(text) if t[0] != "EOF"]
    kind = rng.choice(_MUTATIONS)
    if not toks:
        return text
    if kind == "truncate":
        return text[: rng.randrange(len(text))]
    i = rng.randrange(len(toks))
    start = toks[i][2]
    end = start + len(toks[i][1])
    if kind == "drop":
        return text[:start] + text[end:]
    if kind == "dup":
        return text[:end] + " " + toks[i][1] + text[end:]
    j = min(len(toks) - 1, i + rng.randint(1, 5))
    s2, e2 = toks[j][2], toks[j][2] + len(toks[j][1])
    if j == i:
        return text
    return text[:start] + toks[j][1] + text[end:s2] + toks[i][1] + text[e2:]


def test_random_mutations_never_crash() -> None:
    rng = random.Random(20260)
    texts = [p.read_text() for p in PTX_FILES]
    ok = errors = 0
    t0 = time.perf_counter()
    for _ in range(800):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            text = _mutate(text, rng)
        try:
            parse_ptx(text, "mut.ptx")
            ok += 1
        except PtxSyntaxError as e:
            assert re.match(r"mut\.ptx:\d+:\d+: error: ", str(e)), str(e)
            errors += 1
    assert ok + errors == 800 and errors > 200
    assert time.perf_counter() - t0 < 30


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_regenerate_with_nvcc(tmp_path: Path) -> None:
    """Fresh nvcc output for every committed kernel parses with the same shape."""
    for cu in sorted(INPUTS.glob("*.cu")):
        arch = "sm_90" if cu.stem.startswith("noreturn") else "sm_80"
        out = tmp_path / (cu.stem + ".ptx")
        subprocess.run(
            ["nvcc", f"-arch={arch}", "-lineinfo", "-ptx", str(cu), "-o", str(out)],
            check=True,
            capture_output=True,
        )
        fresh = parse_ptx(out.read_text(), str(out))
        assert [f.name for f in fresh.functions]
