"""Recursive-descent parser for the PTX that nvcc 13 emits (ISA 8.x / 9.x).

Grammar subset (``[]`` optional, ``{}`` repetition)::

    module    := { '.version' NUM | '.target' ID {',' ID} | '.address_size' INT
                 | '.file' INT STR {',' INT} | '.section' NAME '{' ... '}'
                 | [linkage] (function | vardecl) }
    linkage   := '.visible' | '.extern' | '.weak' | '.common'
    function  := ('.entry' | '.func') ['(' params ')'] NAME ['(' [params] ')']
                 { perfdir | '.noreturn' } (';' | block)
    perfdir   := ('.maxntid' | '.reqntid' | '.maxnreg' | '.minnctapersm'
                 | '.maxnctapersm' | '.reqnctapercluster' | ...) INT {',' INT}
                 | '.pragma' STR {',' STR} ';'
    param     := ('.param' | '.reg') {'.ptr' | space | '.align' INT} TYPE NAME ['[' INT ']']
    vardecl   := space {'.align' INT | '.vN'} TYPE NAME {'[' [INT] ']'} ['=' init] ';'
    block     := '{' { stmt } '}'
    stmt      := '.reg' ['.vN'] TYPE regname ['<' INT '>'] {',' ...} ';'
                 | vardecl | '.loc' INT INT INT [',' 'function_name' ID ',' 'inlined_at' INT INT INT]
                 | '.pragma' STR ';' | block
                 | ID ':' ['.callprototype' proto | '.branchtargets' ID {',' ID} ';']
                 | ['@' ['!'] reg] OPCODE [operand {',' operand}] ';'
    reg       := REG | ID (a plain name declared by '.reg', as inline asm does)
    operand   := ['!'] reg ['|' reg] | ['-'] NUM | ID | '[' addr ']' | '{' operand {',' operand} '}'
    addr      := (REG | ID | INT) [('+' | '-') INT]
    call      := 'call' {'.MOD'} ['(' ID {',' ID} ')' ','] (ID | REG) [',' '(' args ')'] [',' ID] ';'

Semantic checks: every ``%``-register must be declared by ``.reg`` in an
enclosing scope (``%r<100>`` declares ``%r0``..``%r99``) or be a special
register; branch targets must be labels of the function; symbols must name a
variable, parameter, function or label; guards must be ``.pred`` registers;
unknown directives are rejected; vector operands need 1-8 elements and
must match a ``.v2/.v4/.v8`` modifier (which ld/st/atom/red require).
Errors raise :class:`PtxSyntaxError`: ``FILE:LINE:COL: error: MESSAGE``.
"""

from __future__ import annotations

import struct

from xdsl.utils.exceptions import DiagnosticException

from ori_dialect.ptx import ast
from ori_dialect.ptx.lexer import Lexed, Token, classify_number


class PtxSyntaxError(DiagnosticException):
    """A PTX diagnostic; ``str()`` is ``FILE:LINE:COL: error: MESSAGE`` + context."""

    def __init__(self, filename: str, line: int, col: int, message: str, source: str = "") -> None:
        self.filename = filename
        self.line = line
        self.col = col
        self.message = message
        text = f"{filename}:{line}:{col}: error: {message}"
        if source:
            # Keep the line's tabs under the caret so it lines up in a terminal.
            pad = "".join(c if c == "\t" else " " for c in source[: col - 1])
            text += f"\n{source}\n{pad}^"
        super().__init__(text)


TYPES = frozenset(
    [
        "b8",
        "b16",
        "b32",
        "b64",
        "b128",
        "u8",
        "u16",
        "u32",
        "u64",
        "s8",
        "s16",
        "s32",
        "s64",
        "f16",
        "f16x2",
        "bf16",
        "bf16x2",
        "f32",
        "f64",
        "pred",
        "e4m3x2",
        "e5m2x2",
        "tf32",
    ]
)
SPACES = frozenset(("global", "const", "shared", "local", "param", "tex"))
LINKAGE = frozenset(("visible", "extern", "weak", "common"))
PERF_INT = frozenset(
    [
        "maxntid",
        "reqntid",
        "maxnreg",
        "minnctapersm",
        "maxnctapersm",
        "reqnctapercluster",
        "maxclusterrank",
        "explicitcluster",
        "blocksareclusters",
    ]
)
SPECIAL_REGS = frozenset(
    [
        "%tid",
        "%ntid",
        "%ctaid",
        "%nctaid",
        "%laneid",
        "%warpid",
        "%nwarpid",
        "%smid",
        "%nsmid",
        "%gridid",
        "%lanemask_eq",
        "%lanemask_le",
        "%lanemask_lt",
        "%lanemask_ge",
        "%lanemask_gt",
        "%clock",
        "%clock_hi",
        "%clock64",
        "%globaltimer",
        "%globaltimer_lo",
        "%globaltimer_hi",
        "%dynamic_smem_size",
        "%total_smem_size",
        "%aggr_smem_size",
        "%clusterid",
        "%nclusterid",
        "%cluster_ctaid",
        "%cluster_nctaid",
        "%cluster_ctarank",
        "%cluster_nctarank",
        "%is_explicit_cluster",
        "%current_graph_exec",
        "%reserved_smem_offset_begin",
        "%reserved_smem_offset_end",
        "%reserved_smem_offset_cap",
        "%reserved_smem_offset_0",
        "%reserved_smem_offset_1",
    ]
)
_SPECIAL_NUMBERED = ("%pm", "%envreg")
BRANCHES = frozenset(("bra", "brx"))
VECTOR_REQUIRED = frozenset(("ld", "st", "atom", "red", "ldu", "multimem"))
_DIGITS = "0123456789"
MAX_NESTING = 64


def _int(text: str) -> int:
    t = text[:-1] if text[-1] in "uU" else text
    if len(t) > 1 and t[0] == "0" and t[1] in "0123456789":
        return int(t, 8)
    return int(t, 0)


class _Scope:
    __slots__ = ("names", "parent", "ranges")

    def __init__(self, parent: _Scope | None) -> None:
        self.names: dict[str, str] = {}
        self.ranges: dict[str, tuple[int, str]] = {}
        self.parent = parent

    def lookup(self, name: str) -> str | None:
        base = name.rstrip(_DIGITS)
        num = name[len(base) :]
        s: _Scope | None = self
        while s is not None:
            t = s.names.get(name)
            if t is not None:
                return t
            if num:
                r = s.ranges.get(base)
                if r is not None and int(num) < r[0] and (num == "0" or num[0] != "0"):
                    s.names[name] = r[1]  # memoise the range hit in its scope
                    return r[1]
            s = s.parent
        return None


class _Parser:
    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        self.lines = Lexed(text)
        self.toks: list[Token] = self.lines.toks
        self.pos = 0
        self.loc: ast.SourceLoc | None = None
        self.files: dict[int, str] = {}
        self.module_names: set[str] = set()
        # symbols to check at module end: (name, offset)
        self.pending: list[tuple[str, int]] = []
        self.depth = 0
        self.opcode_cache: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.inlined_cache: dict[tuple[str, ...], ast.SourceLoc] = {}
        self.imm_cache: dict[str, ast.Immediate] = {}
        self.addr_cache: dict[tuple[str, str], ast.Address] = {}
        self.saw_vector = False
        self.cur_opcode = ""  # the instruction being parsed (vector-width rules)
        self.reg_objs: dict[str, ast.Register] = {}
        self.loc_cache: dict[tuple[str, str, str], ast.SourceLoc] = {}
        self.labels: set[str] = set()
        self.label_uses: list[tuple[str, int]] = []
        self.local_names: set[str] = set()
        self.local_uses: list[tuple[str, int]] = []

    # -- helpers -------------------------------------------------------------

    def error(self, message: str, offset: int | None = None) -> PtxSyntaxError:
        if offset is None:
            offset = self.toks[self.pos][2]
        line, col = self.lines.line_col(offset)
        return PtxSyntaxError(self.filename, line, col, message, self.lines.line_text(line))

    def lc(self, offset: int) -> tuple[int, int]:
        return self.lines.line_col(offset)

    def peek(self) -> Token:
        return self.toks[self.pos]

    def next(self) -> Token:
        tok = self.toks[self.pos]
        if tok[0] == "EOF":
            raise self.error("unexpected end of file")
        self.pos += 1
        return tok

    def describe(self, tok: Token) -> str:
        return "end of file" if tok[0] == "EOF" else f"'{tok[1]}'"

    def expect(self, text: str) -> Token:
        tok = self.toks[self.pos]
        if tok[1] != text or tok[0] in ("STR", "EOF"):
            raise self.error(f"expected '{text}', found {self.describe(tok)}")
        self.pos += 1
        return tok

    def accept(self, text: str) -> bool:
        tok = self.toks[self.pos]
        if tok[1] == text and tok[0] != "STR":
            self.pos += 1
            return True
        return False

    def expect_kind(self, kind: str, what: str) -> Token:
        tok = self.toks[self.pos]
        if tok[0] != kind:
            raise self.error(f"expected {what}, found {self.describe(tok)}")
        self.pos += 1
        return tok

    def to_int(self, text: str, offset: int) -> int:
        if classify_number(text) != "int":
            raise self.error(f"invalid integer '{text}'", offset)
        return _int(text)

    def expect_int(self) -> int:
        tok = self.toks[self.pos]
        if tok[0] == "INT" and tok[1].isdigit() and (tok[1][0] != "0" or len(tok[1]) == 1):
            self.pos += 1
            return int(tok[1])
        neg = self.accept("-")
        tok = self.expect_kind("INT", "integer")
        v = self.to_int(tok[1], tok[2])
        return -v if neg else v

    def expect_name(self) -> Token:
        return self.expect_kind("ID", "identifier")

    def expect_type(self) -> str:
        tok = self.peek()
        if tok[0] == "DIR" and tok[1][1:] in TYPES:
            self.pos += 1
            return tok[1][1:]
        raise self.error(f"expected a type, found {self.describe(tok)}")

    # -- module --------------------------------------------------------------

    def parse_module(self) -> ast.Module:
        version = ""
        targets: list[str] = []
        address_size: int | None = None
        globals_: list[ast.VarDecl | ast.Function] = []
        functions: list[ast.Function] = []
        while True:
            tok = self.peek()
            kind, text, off = tok
            if kind == "EOF":
                break
            if kind != "DIR":
                raise self.error(f"expected a directive, found {self.describe(tok)}")
            d = text[1:]
            if d == "version":
                self.pos += 1
                v = self.next()
                if v[0] != "INT" or classify_number(v[1]) not in ("int", "float"):
                    raise self.error("expected a version number", v[2])
                version = v[1]
            elif d == "target":
                self.pos += 1
                targets.append(self.expect_name()[1])
                while self.accept(","):
                    targets.append(self.expect_name()[1])
            elif d == "address_size":
                self.pos += 1
                address_size = self.expect_int()
                if address_size not in (32, 64):
                    raise self.error("address size must be 32 or 64", off)
            elif d == "file":
                self.pos += 1
                idx = self.expect_int()
                self.files[idx] = self.expect_kind("STR", "file name string")[1][1:-1]
                while self.accept(","):
                    self.expect_int()
            elif d == "section":
                self.skip_section()
            else:
                linkage = None
                if d in LINKAGE:
                    linkage = d
                    self.pos += 1
                    tok = self.peek()
                    d = tok[1][1:] if tok[0] == "DIR" else ""
                if d in ("entry", "func"):
                    fn = self.parse_function(linkage)
                    functions.append(fn)
                    globals_.append(fn)
                elif d in SPACES and d != "param":
                    var = self.parse_var(linkage, module_level=True)
                    self.module_names.add(var.name)
                    globals_.append(var)
                else:
                    raise self.error(f"unknown directive '{self.peek()[1]}'")
        for name, off in self.pending:
            if name not in self.module_names:
                raise self.error(f"undefined symbol '{name}'", off)
        return ast.Module(
            version, tuple(targets), address_size, tuple(globals_), tuple(functions), self.files
        )

    def skip_section(self) -> None:
        self.pos += 1
        self.next()  # section name
        self.expect("{")
        depth = 1
        while depth:
            tok = self.next()
            if tok[0] == "P":
                if tok[1] == "{":
                    depth += 1
                elif tok[1] == "}":
                    depth -= 1

    # -- declarations --------------------------------------------------------

    def parse_var(self, linkage: str | None, module_level: bool) -> ast.VarDecl:
        start = self.next()
        space = start[1][1:]
        align = None
        vector = None
        ptr = False
        while True:
            tok = self.peek()
            if tok[0] != "DIR":
                raise self.error(f"expected a type, found {self.describe(tok)}")
            d = tok[1][1:]
            if d == "align":
                self.pos += 1
                align = self.expect_int()
                if align <= 0 or align & (align - 1):
                    raise self.error("alignment must be a power of two", tok[2])
            elif d in ("v2", "v4", "v8"):
                self.pos += 1
                vector = int(d[1:])
            elif d == "ptr":
                self.pos += 1
                ptr = True
            elif d in TYPES:
                break
            else:
                raise self.error(f"unknown directive '{tok[1]}' in variable declaration")
        type_ = self.expect_type()
        name = self.expect_name()
        dims = self.parse_dims()
        init: object = None
        if self.accept("="):
            init = self.parse_init()
        self.expect(";")
        line, col = self.lc(start[2])
        return ast.VarDecl(
            space, type_, name[1], align, dims, init, linkage, vector, ptr, line, col
        )

    def parse_dims(self) -> tuple[int | None, ...]:
        dims: list[int | None] = []
        while self.accept("["):
            if self.accept("]"):
                dims.append(None)
                continue
            n = self.expect_int()
            if n < 0:
                raise self.error("negative array size")
            dims.append(n)
            self.expect("]")
        return tuple(dims)

    def parse_init(self, depth: int = 0) -> object:
        if self.accept("{"):
            if depth > MAX_NESTING:
                raise self.error("initializer nested too deeply")
            items: list[object] = [self.parse_init(depth + 1)]
            while self.accept(","):
                items.append(self.parse_init(depth + 1))
            self.expect("}")
            return tuple(items)
        tok = self.peek()
        if tok[0] == "ID":
            self.pos += 1
            if tok[1] in ("generic", "mask") and self.accept("("):
                inner = self.expect_name()
                self.expect(")")
                self.pending.append((inner[1], inner[2]))
                return ast.Symbol(inner[1])
            self.pending.append((tok[1], tok[2]))
            if self.peek()[1] == "+" and self.peek()[0] == "P":
                self.pos += 1
                return ast.Address(ast.Symbol(tok[1]), self.expect_int())
            return ast.Symbol(tok[1])
        return self.parse_number()

    def parse_number(self) -> ast.Immediate:
        neg = self.accept("-")
        tok = self.peek()
        kind, text = tok[0], tok[1]
        if kind == "INT":
            if not neg and text.isdigit() and (text[0] != "0" or len(text) == 1):
                self.pos += 1
                imm = self.imm_cache.get(text)
                if imm is None:
                    imm = self.imm_cache[text] = ast.Immediate(int(text), text, "int")
                return imm
            nk = classify_number(text)
            if nk is None:
                raise self.error(f"invalid number '{text}'")
            self.pos += 1
            spelled = "-" + text if neg else text
            if nk == "int":
                v = _int(text)
                return ast.Immediate(-v if neg else v, spelled, "int")
            if nk == "float":
                fv = float(text)
                return ast.Immediate(-fv if neg else fv, spelled, "float")
            bits = int(text[2:], 16)  # noqa: FURB166 (0f/0d prefix, not 0x)
            if nk == "f32":
                fv = struct.unpack("<f", struct.pack("<I", bits))[0]
            else:
                fv = struct.unpack("<d", struct.pack("<Q", bits))[0]
            return ast.Immediate(-fv if neg else fv, spelled, nk)
        raise self.error(f"expected a number, found {self.describe(tok)}")

    def parse_param(self) -> ast.Param:
        start = self.next()
        if start[1] not in (".param", ".reg"):
            raise self.error(f"expected '.param' or '.reg', found '{start[1]}'", start[2])
        align = None
        ptr_align = None
        ptr_space = None
        ptr = False
        while True:
            tok = self.peek()
            if tok[0] != "DIR":
                raise self.error(f"expected a type, found {self.describe(tok)}")
            d = tok[1][1:]
            if d in TYPES:
                break
            self.pos += 1
            if d == "align":
                n = self.expect_int()
                if n <= 0 or n & (n - 1):
                    raise self.error("alignment must be a power of two", tok[2])
                if ptr:  # after .ptr, .align is the pointee's alignment (below)
                    ptr_align = n
                else:
                    align = n
            elif d == "ptr":
                ptr = True
            elif d in SPACES and ptr:
                ptr_space = d
            else:
                raise self.error(f"unknown directive '{tok[1]}' in parameter")
        type_ = self.expect_type()
        while self.peek()[0] == "DIR":  # .ptr [.space] [.align N] after the type
            dtok = self.next()
            d = dtok[1][1:]
            if d == "align":
                n = self.expect_int()
                if n <= 0 or n & (n - 1):
                    raise self.error("alignment must be a power of two", dtok[2])
                # `.ptr .global .align 1` (Triton) gives the alignment of the memory the
                # pointer points to: it does not move the parameter, which keeps its
                # type's natural alignment in the parameter buffer.
                if ptr:
                    ptr_align = n
                else:
                    align = n
            elif d == "ptr":
                ptr = True
            elif d in SPACES and ptr:
                ptr_space = d
            else:
                raise self.error(
                    f"unknown directive '.{d}' in parameter", self.toks[self.pos - 1][2]
                )
        name = self.expect_name()
        dims = self.parse_dims()
        if ptr and ptr_space is None:
            ptr_space = "generic"
        line, col = self.lc(start[2])
        return ast.Param(
            start[1][1:], type_, name[1], align, dims, ptr_space, line, col, ptr_align
        )

    def parse_param_list(self) -> tuple[ast.Param, ...]:
        self.expect("(")
        params: list[ast.Param] = []
        if not self.accept(")"):
            params.append(self.parse_param())
            while self.accept(","):
                params.append(self.parse_param())
            self.expect(")")
        return tuple(params)

    # -- functions -----------------------------------------------------------

    def parse_function(self, linkage: str | None) -> ast.Function:
        start = self.next()
        kind = start[1][1:]
        rets: tuple[ast.Param, ...] = ()
        if kind == "func" and self.peek()[1] == "(":
            rets = self.parse_param_list()
        name = self.expect_name()[1]
        self.module_names.add(name)
        params: tuple[ast.Param, ...] = ()
        if self.peek()[1] == "(":
            params = self.parse_param_list()
        directives: list[tuple[str, tuple[int | str, ...]]] = []
        noreturn = False
        while True:
            tok = self.peek()
            if tok[0] != "DIR":
                break
            d = tok[1][1:]
            if d == "noreturn":
                self.pos += 1
                noreturn = True
            elif d in PERF_INT:
                self.pos += 1
                vals: list[int | str] = []
                if self.peek()[0] == "INT":
                    vals.append(self.expect_int())
                    while self.accept(","):
                        vals.append(self.expect_int())
                if d in ("maxntid", "reqntid", "reqnctapercluster") and not 1 <= len(vals) <= 3:
                    raise self.error(f"'.{d}' takes 1 to 3 integers", tok[2])
                if d in ("maxnreg", "minnctapersm", "maxnctapersm") and len(vals) != 1:
                    raise self.error(f"'.{d}' takes one integer", tok[2])
                directives.append((d, tuple(vals)))
            elif d == "pragma":
                self.pos += 1
                directives.append(("pragma", self.parse_pragma_strings()))
            else:
                raise self.error(f"unknown directive '{tok[1]}'")
        line, col = self.lc(start[2])
        body: tuple[ast.Statement, ...] | None = None
        if not self.accept(";"):
            if self.peek()[1] != "{":
                raise self.error(f"expected '{{' or ';', found {self.describe(self.peek())}")
            body = self.parse_function_body(params, rets)
        return ast.Function(
            kind, name, params, rets, tuple(directives), noreturn, linkage, body, line, col
        )

    def parse_pragma_strings(self) -> tuple[str, ...]:
        strs = [self.expect_kind("STR", "string")[1][1:-1]]
        while self.accept(","):
            strs.append(self.expect_kind("STR", "string")[1][1:-1])
        self.expect(";")
        return tuple(strs)

    def parse_function_body(
        self, params: tuple[ast.Param, ...], rets: tuple[ast.Param, ...]
    ) -> tuple[ast.Statement, ...]:
        self.labels = set()
        self.label_uses = []
        self.local_names = set()
        self.local_uses = []
        self.loc = None
        scope = _Scope(None)
        for p in params + rets:
            self.local_names.add(p.name)
            if p.space == "reg":
                scope.names[p.name] = p.type
        body = self.parse_block(scope)
        for name, off in self.label_uses:
            if name not in self.labels:
                raise self.error(f"undefined label '{name}'", off)
        for name, off in self.local_uses:
            if name not in self.local_names and name not in self.labels:
                self.pending.append((name, off))
        return body

    def parse_block(self, scope: _Scope) -> tuple[ast.Statement, ...]:
        self.expect("{")
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error("blocks nested too deeply")
        stmts: list[ast.Statement] = []
        toks = self.toks
        loc_cache = self.loc_cache
        while True:
            kind, text, off = toks[self.pos]
            if text == ".loc":
                # fast path: `.loc F L C` (three decimal integers, no attributes)
                pos = self.pos
                key = (
                    (toks[pos + 1][1], toks[pos + 2][1], toks[pos + 3][1])
                    if pos + 4 < len(toks)
                    else None
                )
                if key is not None and toks[pos + 4][1] != ",":
                    loc = loc_cache.get(key)
                    if loc is not None:
                        self.loc = loc
                        self.pos = pos + 4
                        continue
                # `.loc F L C, function_name NAME, inlined_at F L C`: cache by its 11 tokens
                long_key = tuple(t[1] for t in toks[pos + 1 : pos + 12])
                if len(long_key) == 11 and long_key[3] == "," and long_key[7] == "inlined_at":
                    loc = self.inlined_cache.get(long_key)
                    if loc is not None:
                        self.loc = loc
                        self.pos = pos + 12
                        continue
                self.pos += 1
                self.loc = self.parse_loc()
                if self.pos == pos + 12 and len(long_key) == 11:
                    self.inlined_cache[long_key] = self.loc
                continue
            if kind == "ID" or (kind == "P" and text == "@"):
                if kind == "ID" and toks[self.pos + 1][1] == ":" and toks[self.pos + 1][0] == "P":
                    self.pos += 2
                    line, col = self.lc(off)
                    if text in self.labels:
                        raise self.error(f"duplicate label '{text}'", off)
                    self.labels.add(text)
                    nxt = toks[self.pos]
                    if nxt[0] == "DIR" and nxt[1] == ".callprototype":
                        self.pos += 1
                        stmts.append(self.parse_callproto(text, line, col))
                    elif nxt[0] == "DIR" and nxt[1] == ".branchtargets":
                        self.pos += 1
                        stmts.append(self.parse_branchtargets(text, line, col))
                    else:
                        stmts.append(ast.Label(text, line, col))
                    continue
                stmts.append(self.parse_instruction(scope))
            elif kind == "DIR":
                d = text[1:]
                if d == "reg":
                    self.pos += 1
                    stmts.extend(self.parse_reg(scope, off))
                elif d == "loc":
                    self.pos += 1
                    self.loc = self.parse_loc()
                elif d == "pragma":
                    self.pos += 1
                    line, col = self.lc(off)
                    for s in self.parse_pragma_strings():
                        stmts.append(ast.Pragma(s, line, col))
                elif d in SPACES:
                    var = self.parse_var(None, module_level=False)
                    self.local_names.add(var.name)
                    stmts.append(var)
                elif d == "file":
                    self.pos += 1
                    idx = self.expect_int()
                    self.files[idx] = self.expect_kind("STR", "file name string")[1][1:-1]
                    while self.accept(","):
                        self.expect_int()
                else:
                    raise self.error(f"unknown directive '{text}'")
            elif kind == "P" and text == "{":
                line, col = self.lc(off)
                stmts.append(ast.Block(self.parse_block(_Scope(scope)), line, col))
            elif kind == "P" and text == "}":
                self.pos += 1
                self.depth -= 1
                return tuple(stmts)
            elif kind == "EOF":
                raise self.error("unexpected end of file: missing '}'")
            else:
                raise self.error(f"expected a statement, found {self.describe(toks[self.pos])}")

    def parse_reg(self, scope: _Scope, off: int) -> list[ast.Statement]:
        vector = None
        tok = self.peek()
        if tok[0] == "DIR" and tok[1] in (".v2", ".v4", ".v8"):
            self.pos += 1
            vector = int(tok[1][2:])
        type_ = self.expect_type()
        line, col = self.lc(off)
        out: list[ast.Statement] = []
        while True:
            tok = self.next()
            if tok[0] not in ("REG", "ID") or "." in tok[1]:
                raise self.error(f"expected a register name, found {self.describe(tok)}", tok[2])
            name = tok[1]
            if self.accept("<"):
                count = self.expect_int()
                if count <= 0:
                    raise self.error("register range count must be positive")
                self.expect(">")
                scope.ranges[name] = (count, type_)
                out.append(ast.RegDecl(type_, name, count, vector, line, col))
            else:
                scope.names[name] = type_
                out.append(ast.RegDecl(type_, name, None, vector, line, col))
            if not self.accept(","):
                break
        self.expect(";")
        return out

    def parse_loc(self) -> ast.SourceLoc:
        toks = self.toks
        pos = self.pos
        if pos + 4 > len(toks):
            raise self.error("unexpected end of file")
        a, b, c, d = toks[pos : pos + 4]
        if (
            a[0] == "INT"
            and b[0] == "INT"
            and c[0] == "INT"
            and d[1] != ","
            and a[1].isdigit()
            and b[1].isdigit()
            and c[1].isdigit()
        ):
            self.pos = pos + 3
            key = (a[1], b[1], c[1])
            loc = self.loc_cache.get(key)
            if loc is None:
                loc = ast.SourceLoc(int(a[1]), int(b[1]), int(c[1]))
                self.loc_cache[key] = loc
            return loc
        f = self.expect_int()
        line = self.expect_int()
        col = self.expect_int()
        inlined: ast.SourceLoc | None = None
        while self.accept(","):
            key = self.expect_name()[1]
            if key == "function_name":
                self.expect_name()
            elif key == "inlined_at":
                inlined = ast.SourceLoc(self.expect_int(), self.expect_int(), self.expect_int())
            else:
                raise self.error(f"unknown .loc attribute '{key}'")
        return ast.SourceLoc(f, line, col, inlined)

    def parse_callproto(self, name: str, line: int, col: int) -> ast.CallProto:
        rets: tuple[ast.Param, ...] = ()
        if self.peek()[1] == "(":
            rets = self.parse_param_list()
        self.expect("_")
        params: tuple[ast.Param, ...] = ()
        if self.peek()[1] == "(":
            params = self.parse_param_list()
        noreturn = self.accept(".noreturn")
        self.expect(";")
        return ast.CallProto(name, rets, params, noreturn, line, col)

    def parse_branchtargets(self, name: str, line: int, col: int) -> ast.BranchTargets:
        """``name: .branchtargets L0, L1, ...;`` -- the label list of ``brx.idx``."""
        labels: list[str] = []
        while True:
            tok = self.expect_name()
            self.label_uses.append((tok[1], tok[2]))
            labels.append(tok[1])
            if not self.accept(","):
                break
        self.expect(";")
        return ast.BranchTargets(name, tuple(labels), line, col)

    # -- instructions --------------------------------------------------------

    def expect_register(self, scope: _Scope, what: str) -> Token:
        """A register token: ``%name``, or a plain name declared by ``.reg``
        (inline-asm blocks declare ``r0`` and ``p``)."""
        tok = self.toks[self.pos]
        if tok[0] == "ID" and scope.lookup(tok[1]) is not None:
            self.pos += 1
            return tok
        return self.expect_kind("REG", what)

    def register_pair(self, scope: _Scope, text: str) -> ast.Register:
        """``text|second`` after the ``|``: the two destinations of
        ``setp``/``shfl``/``match``/``lop3`` (``%p|%q``, ``r0|p``)."""
        self.pos += 1
        second = self.expect_register(scope, "register after '|'")
        self.check_reg(scope, second[1], second[2])
        return ast.Register(text, False, second[1])

    def check_reg(self, scope: _Scope, name: str, off: int) -> str:
        t = scope.lookup(name)
        if t is not None:
            return t
        base = name.split(".", 1)[0]
        if base in SPECIAL_REGS or base.startswith(_SPECIAL_NUMBERED):
            return "special"
        raise self.error(f"undefined register '{name}'", off)

    def parse_instruction(self, scope: _Scope) -> ast.Instruction | ast.Call:
        start = self.toks[self.pos][2]
        self.saw_vector = False
        guard: tuple[str, bool] | None = None
        if self.accept("@"):
            neg = self.accept("!")
            g = self.expect_register(scope, "predicate register")
            t = self.check_reg(scope, g[1], g[2])
            if t not in ("pred", "special"):
                raise self.error(f"type mismatch: guard '{g[1]}' is .{t}, not .pred", g[2])
            guard = (g[1], neg)
        op_tok = self.expect_name()
        self.cur_opcode = op_tok[1]
        split = self.opcode_cache.get(op_tok[1])
        if split is None:
            parts = op_tok[1].split(".")
            split = self.opcode_cache[op_tok[1]] = (parts[0], tuple(parts[1:]))
        opcode, mods = split
        line, col = self.lc(start)
        if opcode == "call":
            return self.parse_call(scope, mods, guard, line, col)
        operands: list[ast.Operand] = []
        is_branch = opcode in BRANCHES
        toks = self.toks
        pos = self.pos
        names = scope.names
        regs = self.reg_objs
        if toks[pos][1] != ";" or toks[pos][0] != "P":
            while True:
                kind, text, off = toks[pos]
                nxt = toks[pos + 1][1] if kind != "EOF" else ""
                if kind == "REG" and nxt != "|":
                    # fast path: a plain register operand
                    if text not in names:
                        self.check_reg(scope, text, off)
                    r = regs.get(text)
                    if r is None:
                        r = regs[text] = ast.Register(text)
                    operands.append(r)
                    pos += 1
                else:
                    self.pos = pos
                    operands.append(self.parse_operand(scope, is_branch))
                    pos = self.pos
                    nxt = toks[pos][1]
                if nxt == "," and toks[pos][0] == "P":
                    pos += 1
                    continue
                break
        self.pos = pos
        self.expect(";")
        vec = None
        if ".v" in op_tok[1]:
            for m in mods:
                if m[0] == "v" and m[1:].isdigit():
                    vec = int(m[1:])
                    if vec not in (2, 4, 8):
                        raise self.error(f"bad vector width '.{m}'", op_tok[2])
        for i, o in enumerate(operands) if vec is not None or self.saw_vector else ():
            if isinstance(o, ast.Vector):
                n = len(o.elements)
                if vec is not None and n != vec:
                    raise self.error(
                        f"bad vector width: '.v{vec}' needs {vec} elements, found {n}", start
                    )
                if vec is None and n == 1 and opcode in VECTOR_REQUIRED:
                    # ptxas reads `ld.global.b32 {%r1}, [a]` (Triton's inline asm) as
                    # the scalar access: a one-element brace is its element.
                    operands[i] = o.elements[0]
                    continue
                if vec is None and opcode in VECTOR_REQUIRED:
                    raise self.error(
                        f"vector operand of {n} elements needs a '.v{n}' modifier", start
                    )
        if opcode == "setp" and operands:
            d = operands[0]
            if isinstance(d, ast.Register):
                t = scope.lookup(d.name)
                if t is not None and t != "pred":
                    raise self.error(
                        f"type mismatch: setp destination '{d.name}' is .{t}, not .pred", start
                    )
        return ast.Instruction(opcode, mods, tuple(operands), guard, self.loc, line, col)

    def parse_call(
        self,
        scope: _Scope,
        mods: tuple[str, ...],
        guard: tuple[str, bool] | None,
        line: int,
        col: int,
    ) -> ast.Call:
        rets: list[ast.Symbol] = []
        if self.accept("("):
            if not self.accept(")"):
                rets.append(self.param_symbol())
                while self.accept(","):
                    rets.append(self.param_symbol())
                self.expect(")")
            self.expect(",")
        tok = self.next()
        target: ast.Symbol | ast.Register
        if tok[0] == "REG":
            self.check_reg(scope, tok[1], tok[2])
            target = ast.Register(tok[1])
        elif tok[0] == "ID":
            self.pending.append((tok[1], tok[2]))
            target = ast.Symbol(tok[1])
        else:
            raise self.error(f"expected a call target, found {self.describe(tok)}", tok[2])
        args: list[ast.Operand] = []
        proto = None
        if self.accept(","):
            if self.accept("("):
                if not self.accept(")"):
                    args.append(self.parse_operand(scope, False))
                    while self.accept(","):
                        args.append(self.parse_operand(scope, False))
                    self.expect(")")
                if self.accept(","):
                    p = self.expect_name()
                    self.label_uses.append((p[1], p[2]))
                    proto = p[1]
            else:
                p = self.expect_name()
                self.label_uses.append((p[1], p[2]))
                proto = p[1]
        self.expect(";")
        if isinstance(target, ast.Register) and proto is None:
            raise self.error("indirect call needs a .callprototype label")
        return ast.Call(mods, target, tuple(rets), tuple(args), proto, guard, self.loc, line, col)

    def param_symbol(self) -> ast.Symbol:
        tok = self.expect_name()
        self.local_uses.append((tok[1], tok[2]))
        return ast.Symbol(tok[1])

    def parse_operand(self, scope: _Scope, is_branch: bool) -> ast.Operand:
        kind, text, off = self.toks[self.pos]
        if kind == "REG":
            self.pos += 1
            self.check_reg(scope, text, off)
            if self.toks[self.pos][1] == "|" and self.toks[self.pos][0] == "P":
                return self.register_pair(scope, text)
            r = self.reg_objs.get(text)
            if r is None:
                r = self.reg_objs[text] = ast.Register(text)
            return r
        if kind == "ID":
            self.pos += 1
            if is_branch:
                self.label_uses.append((text, off))
                return ast.LabelRef(text)
            if text == "_":
                return ast.Symbol("_")
            if scope.lookup(text) is not None:
                if self.toks[self.pos][1] == "|" and self.toks[self.pos][0] == "P":
                    return self.register_pair(scope, text)
                return ast.Register(text)
            self.local_uses.append((text, off))
            return ast.Symbol(text)
        if kind == "P":
            if text == "[":
                return self.parse_address(scope)
            if text == "{":
                self.saw_vector = True
                self.pos += 1
                elems = [self.parse_operand(scope, False)]
                while self.accept(","):
                    elems.append(self.parse_operand(scope, False))
                self.expect("}")
                # wgmma accumulator lists hold up to 128 registers (PTX ISA
                # 9.7.15.5: m64n256k16.f32); other instructions' vectors at most 8
                if len(elems) > 8 and not (len(elems) <= 128 and self.cur_opcode
                                           .startswith("wgmma")):
                    raise self.error(f"bad vector width: {len(elems)} elements", off)
                return ast.Vector(tuple(elems))
            if text == "!":
                self.pos += 1
                r = self.expect_kind("REG", "predicate register")
                self.check_reg(scope, r[1], r[2])
                return ast.Register(r[1], True)
            if text == "-":
                return self.parse_number()
        if kind in ("INT", "FLT", "DEC"):
            return self.parse_number()
        raise self.error(f"expected an operand, found {self.describe(self.toks[self.pos])}")

    def parse_address(self, scope: _Scope) -> ast.Address | ast.TextureRef:
        toks = self.toks
        pos = self.pos
        # fast path: [%reg] / [%reg+N] with a declared register and decimal N
        kind, text, off = toks[pos + 1]
        if kind == "REG" and text in scope.names:
            close = toks[pos + 2]
            if close[1] == "]" and close[0] == "P":
                self.pos = pos + 3
                key: tuple[str, str] = (text, "")
            elif close[1] == "+" and toks[pos + 3][1].isdigit() and toks[pos + 4][1] == "]":
                self.pos = pos + 5
                key = (text, toks[pos + 3][1])
            else:
                key = ("", "")
            if key[0]:
                a = self.addr_cache.get(key)
                if a is None:
                    a = ast.Address(ast.Register(text), int(key[1] or 0))
                    self.addr_cache[key] = a
                return a
        self.pos += 1
        base: ast.Register | ast.Symbol | None
        offset = 0
        if kind == "REG":
            self.pos += 1
            self.check_reg(scope, text, off)
            base = ast.Register(text)
        elif kind == "ID":
            self.pos += 1
            if scope.lookup(text) is not None:
                base = ast.Register(text)
            else:
                self.local_uses.append((text, off))
                base = ast.Symbol(text)
        elif kind == "INT":
            self.pos += 1
            base = None
            offset = self.to_int(text, off)
        else:
            raise self.error(f"expected an address, found {self.describe(self.toks[self.pos])}")
        if base is not None and self.accept(","):
            # ``[tex, {coords}]``: a texture operand (tex, tld4), not an address
            rest = [self.parse_operand(scope, False)]
            while self.accept(","):
                rest.append(self.parse_operand(scope, False))
            self.expect("]")
            return ast.TextureRef(base, tuple(rest))
        if self.accept("+") or self.toks[self.pos][1] == "-" and self.toks[self.pos][0] == "P":
            offset += self.expect_int()
        self.expect("]")
        return ast.Address(base, offset)


def parse_ptx(text: str, filename: str = "<ptx>") -> ast.Module:
    """Parse PTX source into an :class:`ast.Module`; raises :class:`PtxSyntaxError`."""
    return _Parser(text, filename).parse_module()
