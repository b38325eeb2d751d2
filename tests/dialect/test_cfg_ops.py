"""ori.func, branches with block arguments, terminators, calls and the
verifier's structural checks; the Python builder."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import R64Type, pred, r32, r64
from ori_dialect.ops import BraOp, IAdd3Op, ISetPOp
from tests.conftest import parse, show

LOOP = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<4, align 4, at 0x0>], maxnreg = 32 : i32} {
    %0 = ori.mov c[0x0][0x210] : () -> !ori.r32
    %1 = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%1 : !ori.r32)
  ^bb1(%2: !ori.r32):
    %3 = ori.iadd3 %2, 0x1, RZ : (!ori.r32) -> !ori.r32
    %4 = ori.isetp lt.u32 %3, %0, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if not %4 : !ori.p, ^bb2, ^bb1(%3 : !ori.r32)
  ^bb2:
    ori.exit
  }
  ori.func @f(%0: !ori.r32, %1: !ori.r64) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<8, align 8>], returns = [#ori.param<4, align 4>]} {
    %2 = ori.call @f(%0, %1) : (!ori.r32, !ori.r64) -> !ori.r32
    ori.ret %2 : !ori.r32
  }
}"""


def test_cfg_roundtrip() -> None:
    m = parse(LOOP)
    m.verify()
    assert show(m) == LOOP
    g = parse(show(m, generic=True))
    g.verify()
    assert show(g) == LOOP


def _expect_verify_error(text: str, fragment: str) -> None:
    m = parse(text)
    with pytest.raises(DiagnosticException) as e:
        m.verify()
    assert fragment in str(e.value), str(e.value)


def test_missing_terminator() -> None:
    _expect_verify_error(
        LOOP.replace("  ^bb2:\n    ori.exit\n", "  ^bb2:\n    %9 = ori.mov 0x1 : () -> !ori.r32\n"),
        "terminator",
    )


def test_block_argument_count_mismatch() -> None:
    _expect_verify_error(LOOP.replace("ori.bra ^bb1(%1 : !ori.r32)", "ori.bra ^bb1"), "passes 0 block arguments but its successor expects 1")


def test_block_argument_type_mismatch() -> None:
    text = LOOP.replace("%1 = ori.mov 0x0 : () -> !ori.r32\n    ori.bra ^bb1(%1 : !ori.r32)",
                        "%1 = ori.cs2r SRZ : () -> !ori.r64\n    ori.bra ^bb1(%1 : !ori.r64)")
    _expect_verify_error(text, "block argument #0 has type !ori.r64")


def test_kernel_cannot_return() -> None:
    _expect_verify_error(LOOP.replace("  ^bb2:\n    ori.exit", "  ^bb2:\n    ori.ret"), "a kernel ends with ori.exit")


def test_unknown_target() -> None:
    _expect_verify_error(LOOP.replace('"sm_80"', '"sm_999"'), "sm_999")


def test_call_signature_checked() -> None:
    _expect_verify_error(LOOP.replace("%2 = ori.call @f(%0, %1) : (!ori.r32, !ori.r64) -> !ori.r32",
                                      "%2 = ori.call @f(%0) : (!ori.r32) -> !ori.r32"), "but the function has type")


def test_entry_block_not_a_branch_target() -> None:
    text = """builtin.module {
  ori.func kernel @k() {
    %0 = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb0
  }
}"""
    with pytest.raises((DiagnosticException, ParseError)):
        parse(text).verify()


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("%9 = ori.iadd3 %1, 0x1, RZ : (!ori.r64) -> !ori.r32", "ori.iadd3: operand 'a' must be"),
        ("%9 = ori.imad wide %0, 0x1, RZ : (!ori.r32) -> !ori.r32", "wide form defines a 64-bit result"),
        ("%9 = ori.iadd3 %0, 0x1, RZ if %4 : (!ori.r32, !ori.p) -> !ori.r32", "one tied prior value per result"),
        ("%9 = ori.iadd3 %0, 0x1, RZ if %4 else %4 : (!ori.r32, !ori.p, !ori.p) -> !ori.r32", "tied prior value has type"),
        ("%9 = ori.ldg b64 [%0] : (!ori.r32) -> !ori.r64", "operand 'addr' must be"),
        ("%9 = ori.ldg b64 [%1] : (!ori.r64) -> !ori.r32", "a b64 access moves a ori.r64 value"),
        ("%9 = ori.lop3 %0, %0, %0, 0x1ff : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32", "truth table"),
        ("%9 = ori.s2r SR_TID : () -> !ori.r32", "needs a dimension"),
        ("%9 = ori.isetp %0, %0, PT : (!ori.r32, !ori.r32) -> !ori.p", "missing required modifier"),
    ],
)
def test_instruction_verifier(line: str, fragment: str) -> None:
    text = f"""builtin.module {{
  ori.func @f(%0: !ori.r32, %1: !ori.r64, %4: !ori.p) {{
    {line}
    ori.ret
  }}
}}"""
    try:
        m = parse(text)
    except ParseError as e:
        assert fragment in str(e), str(e)
        return
    with pytest.raises(VerifyException) as e:
        m.verify()
    assert fragment in str(e.value), str(e.value)


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("%9 = ori.iadd3 bogus %0, 0x1, RZ : (!ori.r32) -> !ori.r32", "unknown modifier 'bogus'"),
        ("%9 = ori.iadd3 %0, 1.5, RZ : (!ori.r32) -> !ori.r32", "takes an integer immediate"),
        ("%9 = ori.iadd3 %0, 0x1, PT : (!ori.r32) -> !ori.r32", "cannot be PT"),
        ("%9 = ori.shl %0, c[0x0][0x10] : (!ori.r32, !ori.r32) -> !ori.r32", "1 SSA operands but 2 operand types"),
        ("%9 = ori.iadd3 %0, 0x1 : (!ori.r32) -> !ori.r32", "expects operand 'c'"),
        ("%9 = ori.mov %0 : (!ori.r32<R5x>) -> !ori.r32", ""),
    ],
)
def test_parse_errors_have_locations(line: str, fragment: str) -> None:
    text = f"builtin.module {{\n  ori.func @f(%0: !ori.r32) {{\n    {line}\n    ori.ret\n  }}\n}}"
    with pytest.raises((ParseError, VerifyException)) as e:
        parse(text).verify()
    assert fragment in str(e.value)
    if isinstance(e.value, ParseError):
        assert ":3:" in str(e.value)  # line 3 of the input


def test_misaligned_register_rejected() -> None:
    with pytest.raises(VerifyException, match="misaligned register R5"):
        R64Type.from_name("R5").verify()


def test_builder_loop() -> None:
    fb = FuncBuilder("count", kernel=True, params=[(8, 8), (4, 4)])
    n = fb.mov(cbank(0, 0x218))
    zero = fb.mov(0)
    loop = fb.block(r32)
    done = fb.block()
    fb.bra(loop, zero)
    with fb.at(loop):
        i2 = fb.iadd3(loop.args[0], 1, RZ)
        p = fb.isetp(i2, n, PT, mods="lt.u32")
        fb.bra(loop, i2, guard=p, fallthrough=done)
    with fb.at(done):
        fb.exit()
    m = module(fb.func)
    m.verify()
    assert isinstance(i2.owner, IAdd3Op) and isinstance(p.owner, ISetPOp)
    assert isinstance(loop.last_op, BraOp) and loop.last_op.fallthrough is done
    assert [p.offset.data for p in fb.func.params.data] == [0, 8]  # type: ignore[union-attr]
    assert show(parse(show(m))) == show(m)


def test_builder_guarded_and_wide() -> None:
    fb = FuncBuilder("g", [r64, pred], [r32])
    a, p = fb.entry.args
    v = fb.ldg(a, 0x10)
    w = fb.iadd3(v, 1, RZ, guard=p, guard_neg=True, prior=[v])
    fb.ret(w)
    m = module(fb.func)
    m.verify()
    assert "if not" in show(m)


def test_uniform_registers_need_sm75() -> None:
    text = """builtin.module attributes {ori.target = "sm_70"} {
  ori.func kernel @k() {
    %0 = ori.mov 0x1 : () -> !ori.ur32
    ori.exit
  }
}"""
    parse(text.replace("sm_70", "sm_75")).verify()
    _expect_verify_error(text, "sm_70 has no UR registers")


def test_use_before_definition_rejected() -> None:
    text = """builtin.module {
  ori.func @f(%0: !ori.r32) {
    %1 = ori.iadd3 %2, 0x1, RZ : (!ori.r32) -> !ori.r32
    %2 = ori.iadd3 %0, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret
  }
}"""
    _expect_verify_error(text, "is used before its definition")


def test_non_dominating_definition_rejected() -> None:
    text = """builtin.module {
  ori.func @f(%0: !ori.r32, %p: !ori.p) {
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    %1 = ori.iadd3 %0, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb3
  ^bb2:
    ori.bra ^bb3
  ^bb3:
    %2 = ori.iadd3 %1, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret
  }
}"""
    _expect_verify_error(text, "does not dominate this use")
    # Passing the value along the edge from its own block is fine.
    ok = text.replace("ori.bra ^bb3\n  ^bb2:", "ori.bra ^bb3(%1 : !ori.r32)\n  ^bb2:").replace(
        "  ^bb2:\n    ori.bra ^bb3\n", "  ^bb2:\n    ori.bra ^bb3(%0 : !ori.r32)\n").replace(
        "  ^bb3:\n    %2 = ori.iadd3 %1", "  ^bb3(%m: !ori.r32):\n    %2 = ori.iadd3 %m")
    parse(ok).verify()
