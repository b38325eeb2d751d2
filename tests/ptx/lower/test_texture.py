"""PTX import of ``tex`` / ``tld4`` on texture objects (ori_dialect/ptx/lower/texture.py)
and the interpreter's texture model (ori_dialect/interpreter/texture.py).

The fetch results are compared with values worked out by hand from the CUDA
Programming Guide's "Texture Fetching" appendix (the 9-bit filter weights,
the address modes at the edges, the TLD4 texel order), and every form the
model does not cover must stop with one diagnostic.
"""

from __future__ import annotations

import numpy as np
import pytest

from ori_dialect.interpreter import InterpreterError, Texture, run_kernel
from ori_dialect.ops.texture import TexOp, Tld4Op, TldOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError

HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"


def kernel(fetch: str, coords: str = ".reg .f32 %c<3>;", ctype: str = "f32") -> str:
    """A kernel that reads one (x[, y]) pair per thread from ``xy``, fetches
    through ``tex`` with ``fetch`` and stores the four results to ``out``."""
    ld = "ld.global.f32" if ctype == "f32" else "ld.global.s32"
    return HEAD + f""".visible .entry k(.param .u64 tex, .param .u64 xy, .param .u64 out)
{{
  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>; {coords}
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [tex]; ld.param.u64 %rd2, [xy]; ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 8; add.s64 %rd5, %rd2, %rd4;
  {ld} %c1, [%rd5]; {ld} %c2, [%rd5+4];
  mul.wide.u32 %rd4, %r1, 16; add.s64 %rd6, %rd3, %rd4;
  {fetch}
  st.global.v4.f32 [%rd6], {{%f1, %f2, %f3, %f4}};
  ret;
}}
"""


def run(src: str, tex: Texture, xy: list[tuple[float, float]], dtype: object = np.float32,
        ) -> np.ndarray:
    m = import_ptx(src)
    m.verify()
    a = np.array(xy, dtype=dtype)
    out = np.zeros((len(xy), 4), np.float32)
    return run_kernel(m, "k", 1, len(xy), [tex, a, out])[2]


TEX2D = "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}];"
IMG = np.array([[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]], np.float32)


def test_lowering_picks_the_sass_family() -> None:
    m = import_ptx(kernel(TEX2D))
    assert len([op for op in m.walk() if isinstance(op, TexOp)]) == 1
    m = import_ptx(kernel("tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}];",
                          ".reg .b32 %c<3>;", "s32"))
    assert [op.mod("geom") for op in m.walk() if isinstance(op, TldOp)] == ["dim2"]
    m = import_ptx(kernel("tld4.b.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}];"))
    assert [op.mod("comp") for op in m.walk() if isinstance(op, Tld4Op)] == ["b"]


def test_point_sampling_and_clamp() -> None:
    got = run(kernel(TEX2D), Texture(IMG), [(0.5, 0.5), (3.99, 2.0), (-5, 1.5), (9, 9)])
    assert got[:, 0].tolist() == [0, 23, 10, 23]
    assert (got[:, 1:] == 0).all()  # a one-channel texture returns 0 in the others


def test_border_is_zero() -> None:
    got = run(kernel(TEX2D), Texture(IMG, address_mode="border"), [(-0.01, 1), (4.0, 1), (1, 1)])
    assert got[:, 0].tolist() == [0, 0, 11]


def test_linear_weights_are_9_bit_fixed_point() -> None:
    # x = 1.8: xB = 1.3, frac 0.3 -> round(76.8) = 77 -> weight 77/256, not 0.3
    tex = Texture(IMG, filter_mode="linear")
    got = run(kernel(TEX2D), tex, [(1.8, 0.5), (1.5, 1.5), (2.0, 2.0)])
    assert got[0, 0] == np.float32(1 + 77 / 256)
    assert got[1, 0] == 11.0  # texel centre: weight 0
    # (2, 2): xB = yB = 1.5: the four texels (1,1) (2,1) (1,2) (2,2) a quarter each
    assert got[2, 0] == np.float32((11 + 12 + 21 + 22) / 4)


def test_linear_border_blends_with_zero() -> None:
    tex = Texture(IMG, address_mode="border", filter_mode="linear")
    got = run(kernel(TEX2D), tex, [(4.0, 0.5)])  # half of texel 3, half of the border
    assert got[0, 0] == 1.5


def test_normalized_wrap_and_mirror() -> None:
    row = np.array([[1, 2, 3, 4]], np.float32)
    w = Texture(row, address_mode="wrap", normalized_coords=True)
    got = run(kernel(TEX2D), w, [(1.125, 0.5), (-0.125, 0.5)])
    assert got[:, 0].tolist() == [1, 4]
    m = Texture(row, address_mode="mirror", normalized_coords=True)
    got = run(kernel(TEX2D), m, [(1.125, 0.5), (-0.125, 0.5), (2.125, 0.5)])
    assert got[:, 0].tolist() == [4, 1, 1]


def test_tld4_texel_order() -> None:
    src = kernel("tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}];")
    got = run(src, Texture(IMG), [(2.0, 1.0)])  # i = 1, j = 0
    # (i, j+1), (i+1, j+1), (i+1, j), (i, j)
    assert got[0].tolist() == [11, 12, 2, 1]


def test_integer_coordinates_on_linear_memory() -> None:
    src = kernel("tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1}];",
                 ".reg .b32 %c<3>;", "s32")
    tex = Texture(np.arange(4, dtype=np.float32) + 7, linear=True)
    got = run(src, tex, [(0, 0), (3, 0), (4, 0), (-1, 0)], dtype=np.int32)
    assert got[:, 0].tolist() == [7, 10, 0, 0]


def test_guarded_fetch_keeps_old_values() -> None:
    src = kernel("mov.f32 %f1, 0f3F800000; setp.lt.f32 %p1, %c1, 2.0;\n"
                 "@%p1 tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}];")
    got = run(src, Texture(IMG), [(1.5, 1.5), (3.5, 1.5)])
    assert got[:, 0].tolist() == [11, 1]


@pytest.mark.parametrize(
    ("fetch", "message"),
    [
        ("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%c1, %c2}];",
         "independent texture/sampler mode"),
        ("tex.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2, %c1, %c2}];",
         "only .1d and .2d texture geometries"),
        ("tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1, %c2}], %c1;",
         "level, gradient, offset"),
        ("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1}];",
         "needs 2 coordinate(s), got 1"),
        ("tex.2d.v4.f32.f32 {%f1, %f2}, [%rd1, {%c1, %c2}];",
         "bad vector width"),
        ("tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%c1}];",
         "expected tld4.{r,g,b,a}.2d"),
    ],
)
def test_unmodelled_forms_stop_with_one_diagnostic(fetch: str, message: str) -> None:
    with pytest.raises(PtxSyntaxError, match=message.replace(".", r"\.").replace("(", r"\(")
                       .replace(")", r"\)").replace("{", r"\{").replace("}", r"\}")):
        import_ptx(kernel(fetch))


def test_result_type_mismatch_faults_naming_instruction_and_thread() -> None:
    with pytest.raises(InterpreterError,
                       match="a .f32 fetch from a texture that returns integer") as e:
        run(kernel(TEX2D), Texture(IMG.astype(np.int32)), [(1, 1)])
    assert "ori.tex" in str(e.value) and "tid (0,0,0)" in str(e.value)
    src = kernel("tex.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%c1, %c2}];\n"
                 "mov.b32 %f1, %r1; mov.b32 %f2, %r2; mov.b32 %f3, %r3; mov.b32 %f4, %r4;")
    with pytest.raises(InterpreterError, match="a .s32 fetch from a texture that returns float"):
        run(src, Texture(IMG), [(1, 1)])
    with pytest.raises(InterpreterError, match="linear filtering of integer results"):
        run(src, Texture(IMG.astype(np.int32), filter_mode="linear"), [(1, 1)])


def test_unknown_handle_faults() -> None:
    m = import_ptx(kernel(TEX2D))
    with pytest.raises(InterpreterError, match=r"TEX: texture handle 0x7 names no texture"):
        run_kernel(m, "k", 1, 1, [np.uint64(7), np.zeros(2, np.float32), np.zeros(4, np.float32)])


def test_nan_coordinate_faults() -> None:
    with pytest.raises(InterpreterError, match="NaN texture coordinate"):
        run(kernel(TEX2D), Texture(IMG), [(1, 1), (float("nan"), 1)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"array": IMG, "address_mode": "wrap"}, "need normalized coordinates"),
        ({"array": IMG, "address_mode": "repeat"}, "address_mode 'repeat'"),
        ({"array": IMG, "filter_mode": "cubic"}, "filter_mode 'cubic'"),
        ({"array": IMG, "read_mode": "normalized_float"}, "normalized_float reads 8/16-bit"),
        ({"array": np.zeros((2, 2, 2), np.float32), "dims": 3}, "not 3D"),
        ({"array": np.zeros((2, 3), np.float32), "dims": 1}, "1, 2 or 4 channels"),
        ({"array": IMG.astype(np.float64)}, "texel type float64"),
        ({"array": IMG, "linear": True}, "linear-memory texture is 1D"),
    ],
)
def test_bad_texture_objects_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InterpreterError, match=message):
        Texture(**kwargs)  # type: ignore[arg-type]


def test_texture_argument_needs_a_64_bit_parameter() -> None:
    src = HEAD + ".visible .entry k(.param .u32 t) { ret; }\n"
    with pytest.raises(InterpreterError, match="a Texture .* for a 4-byte parameter"):
        run_kernel(import_ptx(src), "k", 1, 1, [Texture(IMG)])
