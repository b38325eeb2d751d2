"""Unit tests of the ``ori-asm`` listing (ori_dialect/asm_printer.py)."""

from __future__ import annotations

import io

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ori_dialect.asm_printer import OriAsmTarget, format_function, format_module
from ori_dialect.ops.func import FuncOp
from tests.conftest import make_context


def _parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def _kernel(body: str, params: str = "") -> str:
    attrs = f" attributes {{params = [{params}]}}" if params else ""
    return (
        'builtin.module attributes {ori.target = "sm_80"} {\n'
        f"  ori.func kernel @k(){attrs} {{\n{body}\n  }}\n}}\n"
    )


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in format_module(_parse(text)).splitlines()]


def test_target_emits_listing() -> None:
    module = _parse(_kernel("    ori.exit"))
    out = io.StringIO()
    OriAsmTarget().emit(Context(), module, out)
    assert out.getvalue() == format_module(module)
    assert OriAsmTarget.name == "ori-asm"
    assert out.getvalue().splitlines()[0] == "// ori-asm, target sm_80"


def test_header_and_stats() -> None:
    lines = _lines(_kernel("    ori.exit", "#ori.param<8, align 8, at 0x0>"))
    assert ".entry k  // target sm_80; params: 0x0 (8 B, align 8)" in lines
    assert ".L_x_0:" in lines
    assert "EXIT ;" in lines
    assert lines[-1] == "// end k: 1 instruction, 1 block"


def test_modifiers_are_upper_case_and_sass_spelled() -> None:
    body = """
    %i = ori.s2r SR_TID.X : () -> !ori.r32
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg b64 [%w + 0x10] : (!ori.r64) -> !ori.r64
    %p = ori.isetp ge.u32 %i, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %b = ori.ldg u8 [%w - 0x4] : (!ori.r64) -> !ori.r32
    ori.exit"""
    lines = _lines(_kernel(body))
    assert "S2R %r0, SR_TID.X ;" in lines
    assert "LDC.64 %r1, c[0x0][0x210] ;" in lines
    assert "IMAD.WIDE.U32 %r2, %r0, 0x4, %r1 ;" in lines
    assert "LDG.E.64 %r3, [%r2.64+0x10] ;" in lines
    # SETP always spells its combining op and its second destination
    assert "ISETP.GE.U32.AND %p0, PT, %r0, c[0x0][0x218], PT ;" in lines
    assert "LDG.E.U8 %r4, [%r2.64-0x4] ;" in lines


def test_source_modifiers_and_immediates() -> None:
    body = """
    %x = ori.mov -0x1 : () -> !ori.r32
    %f = ori.ffma -%x, 2.0, |%x| : (!ori.r32, !ori.r32) -> !ori.r32
    %g = ori.fadd %f, inf : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt %x, 0x0, PT : (!ori.r32) -> !ori.p
    %s = ori.sel %x, 0x10, not %p : (!ori.r32, !ori.p) -> !ori.r32
    ori.exit"""
    lines = _lines(_kernel(body))
    assert "MOV %r0, -0x1 ;" in lines
    assert "FFMA %r1, -%r0, 2, |%r0| ;" in lines
    assert "FADD %r2, %r1, +INF ;" in lines
    assert "SEL %r3, %r0, 0x10, !%p0 ;" in lines


def test_physical_registers_and_uniform_mov() -> None:
    body = """
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R2>
    %u = ori.mov c[0x0][0x0] : () -> !ori.ur32<UR6>
    %v = ori.ldg b128 [%a] : (!ori.r64<R2>) -> !ori.r128<R4>
    %p = ori.isetp eq %u, %u, PT : (!ori.ur32<UR6>, !ori.ur32<UR6>) -> !ori.p<P1>
    ori.exit"""
    text = (
        _kernel(body)
        .replace("%u, %u", "%t, %u")
        .replace("%u = ori.mov", "%t = ori.s2r SR_LANEID : () -> !ori.r32<R0>\n    %u = ori.mov")
        .replace("(!ori.ur32<UR6>, !ori.ur32<UR6>)", "(!ori.r32<R0>, !ori.ur32<UR6>)")
    )
    lines = _lines(text)
    assert "LDC.64 R2, c[0x0][0x210] ;" in lines
    assert "UMOV UR6, c[0x0][0x0] ;" in lines
    assert "LDG.E.128 R4, [R2.64] ;" in lines
    assert "ISETP.EQ.AND P1, PT, R0, UR6, PT ;" in lines


def test_guards_and_tied_priors() -> None:
    body = """
    %x = ori.mov 0x1 : () -> !ori.r32
    %p = ori.isetp ne %x, 0x0, PT : (!ori.r32) -> !ori.p
    %y = ori.iadd3 %x, 0x1, RZ if not %p else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.exit"""
    lines = _lines(_kernel(body))
    assert "@!%p0 IADD3 %r1, %r0, 0x1, RZ ;  // else %r1 = %r0" in lines


def test_branches_fallthrough_and_edge_moves() -> None:
    body = """
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt %i2, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.bra if not %p : !ori.p, ^bb4, ^bb3(%i2 : !ori.r32)
  ^bb4:
    ori.exit
  ^bb3(%r : !ori.r32):
    ori.exit"""
    text = _kernel(body).replace("ori.func kernel @k() {", "ori.func kernel @k() {\n  ^bb0:")
    lines = _lines(text)
    # an unconditional branch to the next block is no instruction
    assert "// fall through to .L_x_1(%r1 <- %r0)" in lines
    assert ".L_x_1:  // block args: %r1" in lines
    # the fall-through (.L_x_2) is the next block: no extra BRA
    i = lines.index("@%p0 BRA .L_x_1 ;  // .L_x_1(%r1 <- %r2)")
    assert lines[i + 1] == ".L_x_2:"
    # the taken edge (.L_x_3) is the next block, the fall-through (.L_x_4)
    # is not: one BRA to .L_x_4 under the inverted guard
    j = lines.index("@%p0 BRA .L_x_4 ;  // .L_x_4(%r3 <- %r2)")
    assert lines[j + 1] == ".L_x_3:"
    assert lines[-1] == "// end k: 7 instructions, 5 blocks"


def test_elided_fallthrough_keeps_its_moves() -> None:
    body = """
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp eq %z, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb1(%z : !ori.r32)
  ^bb1(%a : !ori.r32):
    ori.exit
  ^bb2:
    ori.exit"""
    lines = _lines(_kernel(body))
    assert "// fall through to .L_x_1(%r1 <- %r0)" in lines


def test_device_function_call_and_ret() -> None:
    text = """builtin.module {
  ori.func @f(%x : !ori.r32) -> !ori.r32 {
    %r = ori.call @f(%x) : (!ori.r32) -> !ori.r32
    ori.ret %r : !ori.r32
  }
}"""
    module = _parse(text)
    func = next(op for op in module.body.ops if isinstance(op, FuncOp))
    lines = [ln.strip() for ln in format_function(func).splitlines()]
    assert lines[0] == ".func f(%r0) -> (r32)  // no target"
    assert "CALL.REL.NOINC `(f) ;  // (%r0) -> %r1" in lines
    assert "RET.REL.NODEC ;  // returns %r1" in lines


def test_numbering_is_per_file_and_stable() -> None:
    body = """
    %a = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp eq %a, 0x0, PT : (!ori.r32) -> !ori.p
    %u = ori.mov 0x1 : () -> !ori.ur32
    %b = ori.mov 0x2 : () -> !ori.r32
    ori.exit"""
    first = format_module(_parse(_kernel(body)))
    assert first == format_module(_parse(_kernel(body)))
    lines = [ln.strip() for ln in first.splitlines()]
    assert "UMOV %ur0, 0x1 ;" in lines
    assert "MOV %r1, 0x2 ;" in lines


def test_undef_and_bitwise_not() -> None:
    from ori_dialect.asm_printer import format_module
    from tests.conftest import parse

    m = parse("""builtin.module {
  ori.func @f(%a: !ori.r32, %p: !ori.p) {
    %u = ori.undef : () -> !ori.r32
    %0 = ori.iadd3 x %a, not %u, RZ, %p, not PT : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.ret
  }
}""")
    m.verify()
    text = format_module(m)
    assert "= undefined" in text
    assert "IADD3.X %r2, %r0, ~%r1, RZ, %p0, !PT" in text, text
