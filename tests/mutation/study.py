#!/usr/bin/env python3
"""Mutation study: how well a punycheck gate catches regressions in two real
Punycode implementations that nobody here wrote.

Subjects: CPython's Lib/encodings/punycode.py (of the python3 on PATH) and
npm punycode 2.3.1 (adapters/node/node_modules/punycode-2.3.1). For each,
mutants are made at run time from the installed file with classic operators,
one edit each; nothing installed is touched. Per mutant, three judges:

  differential  the mutant beside the unmutated code, in process, on a fixed
                corpus of 20,000 random inputs plus edge cases: does it change
                behaviour at all?
  own tests     the subject's own test suite (CPython: the tests of
                test.test_codecs that call into the codec; punycode.js: its
                repository's tests/tests.js at v2.3.1)
  punycheck     `punycheck check` with the gate's declarations, against a
                baseline recorded on the unmutated code, the way a maintainer
                uses a gate; exit 1 (NONCONFORMING) kills the mutant.

    python3 tests/mutation/study.py [--subject all] [--limit N] [--jobs J]

Per-mutant records go to OUT/results.jsonl, the Markdown table to
OUT/table.md and standard output. See tests/mutation/README.md.
"""
import argparse
import ast
import codecs
import concurrent.futures
import glob
import gzip
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tokenize
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS_SEED = 3492
CORPUS_SIZE = 10_000  # per direction: 20,000 random inputs in all
TESTS_SECONDS = 60
DIFFERENTIAL_SECONDS = 300
CHECK_SECONDS = 120  # punycheck's own ceiling (--seconds)
HARD_KILL_SECONDS = 300  # then the whole process group is killed

RUNNING = set()  # process groups started and not yet reaped
RUNNING_LOCK = threading.Lock()
STOPPING = threading.Event()  # set on Ctrl-C: records of killed runs are not written


# ----------------------------------------------------------------- mutants

@dataclass
class Token:
    kind: str  # num, name, op, str, regex, newline
    text: str
    start: int  # offsets into the source
    end: int
    line: int


@dataclass
class Mutant:
    id: str
    operator: str
    line: int
    before: str  # the source line(s) as they are
    after: str  # the same line(s) mutated
    source: str = field(repr=False)


# One mutant per site: the boundary shift of an inequality (the subtle one;
# its negation is caught by anything), the negation of an equality.
RELATIONAL = {"<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"],
              "==": ["!="], "!=": ["=="], "===": ["!=="], "!==": ["==="]}
LANGUAGES = {
    "python": {
        "arithmetic": {"+": "-", "-": "+", "*": "//", "/": "*", "//": "*", "%": "*",
                       "+=": "-=", "-=": "+=", "*=": "//=", "//=": "*=", "%=": "*="},
        "bitwise": {"&": "|", "|": "&", "<<": ">>", ">>": "<<"},
        "logical": {"and": "or", "or": "and", "True": "False", "False": "True"},
        "increments": {},
        "none": "None",
    },
    "js": {
        "arithmetic": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*",
                       "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*=", "%=": "*="},
        "bitwise": {"&": "|", "|": "&", "<<": ">>", ">>": "<<", ">>>": ">>"},
        "logical": {"&&": "||", "||": "&&", "true": "false", "false": "true"},
        "increments": {"++": "--", "--": "++"},
        "none": "undefined",
    },
}
OPENING, CLOSING = ("(", "[", "{"), (")", "]", "}")
CONDITION_WORDS = {"and", "or", "not", "is", "in", "&&", "||", "!"}
PREFIX_WORDS = {"return", "in", "and", "or", "not", "if", "elif", "while", "else", "typeof", "case"}


def line_starts(source):
    """Offsets at which each line of source starts."""
    return [0] + [i + 1 for i, c in enumerate(source) if c == "\n"]


def python_tokens(source):
    """The tokens of a Python source that mutants are made from (stdlib tokenize)."""
    starts = line_starts(source)
    kinds = {tokenize.NUMBER: "num", tokenize.NAME: "name", tokenize.OP: "op",
             tokenize.STRING: "str", tokenize.NEWLINE: "newline"}
    tokens = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in kinds:
            (row, col), (end_row, end_col) = tok.start, tok.end
            tokens.append(Token(kinds[tok.type], tok.string, starts[row - 1] + col,
                                starts[end_row - 1] + end_col, row))
    return tokens


JS_PUNCTUATORS = sorted("""{ } ( ) [ ] ; , < > <= >= == != === !== + - * / % ++ -- << >> >>>
    & | ^ ! ~ && || ?? ? : = += -= *= /= %= <<= >>= >>>= &= |= ^= => . ...""".split(),
                        key=len, reverse=True)
JS_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
JS_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def js_tokens(source):
    """The tokens of a JavaScript source: a small tokenizer that skips
    comments and steps over strings, template literals and regex literals."""
    starts, tokens, i = line_starts(source), [], 0

    def add(kind, start, end):
        line = sum(1 for s in starts if s <= start)
        tokens.append(Token(kind, source[start:end], start, end, line))

    while i < len(source):
        c = source[i]
        if c.isspace():
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else len(source)
        elif source.startswith("/*", i):
            i = source.index("*/", i + 2) + 2
        elif c in "'\"`":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            add("str", i, j + 1)
            i = j + 1
        elif c == "/" and regex_allowed(tokens[-1] if tokens else None):
            j, in_class = i + 1, False
            while in_class or source[j] != "/":
                in_class = (in_class or source[j] == "[") and source[j] != "]"
                j += 2 if source[j] == "\\" else 1
            j += 1
            while j < len(source) and source[j].isalpha():
                j += 1  # flags
            add("regex", i, j)
            i = j
        elif (m := JS_NUMBER.match(source, i)) and c.isdigit():
            add("num", i, m.end())
            i = m.end()
        elif m := JS_NAME.match(source, i):
            add("name", i, m.end())
            i = m.end()
        else:
            op = next(p for p in JS_PUNCTUATORS if source.startswith(p, i))
            add("op", i, i + len(op))
            i += len(op)
    return tokens


def regex_allowed(previous):
    """Whether a '/' after this token starts a regex literal (not a division)."""
    if previous is None:
        return True
    if previous.kind == "op":
        return previous.text not in (")", "]", "}")
    return previous.kind == "name" and previous.text in PREFIX_WORDS


def matching(tokens, i):
    """Index of the bracket closing the one at tokens[i]."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].text in OPENING and tokens[j].kind == "op"
        depth -= tokens[j].text in CLOSING and tokens[j].kind == "op"
        if depth == 0:
            return j
    raise ValueError("unbalanced brackets")


def js_reachable_spans(tokens, roots=("encode", "decode")):
    """Offset spans of the top-level declarations (functions and consts) that
    the roots reach through the names they use: for punycode.js, encode and
    decode with ucs2decode, adapt, basicToDigit, digitToBasic, error and the
    Bootstring constants; not toASCII, toUnicode, mapDomain or ucs2encode."""
    declarations, i, depth = {}, 0, 0
    while i < len(tokens):
        tok = tokens[i]
        if depth == 0 and tok.text == "function" and tokens[i + 1].kind == "name":
            body = next(j for j in range(i, len(tokens)) if tokens[j].text == "{")
            end = matching(tokens, body)
            declarations[tokens[i + 1].text] = (i, end)
            i = end + 1
            continue
        if depth == 0 and tok.text in ("const", "let", "var") and tokens[i + 2].text == "=":
            j, inner = i, 0
            while not (inner == 0 and tokens[j].text == ";"):
                inner += tokens[j].text in OPENING and tokens[j].kind == "op"
                inner -= tokens[j].text in CLOSING and tokens[j].kind == "op"
                j += 1
            declarations[tokens[i + 1].text] = (i, j)
            i = j + 1
            continue
        depth += tok.text in OPENING and tok.kind == "op"
        depth -= tok.text in CLOSING and tok.kind == "op"
        i += 1
    reached, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        first, last = declarations[name]
        for j in range(first, last + 1):
            used = tokens[j]
            if used.kind == "name" and used.text in declarations and tokens[j - 1].text != ".":
                todo.append(used.text)
    return [(tokens[declarations[n][0]].start, tokens[declarations[n][1]].end) for n in sorted(reached)]


def python_function_spans(source):
    """Offset spans of the bodies of every function and method of a Python
    module (for punycode.py: all of the codec, getregentry included)."""
    starts = line_starts(source) + [len(source)]
    return [(starts[node.body[0].lineno - 1], starts[node.end_lineno])
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def integer_variants(text):
    """The constant off by one each way, written as it was (hex stays hex);
    0 and 1 (counters, increments, starting values) only swap for each other."""
    if text in ("0", "1"):
        return [str(1 - int(text))]
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
        value, digits = int(text, 16), text[2:]
        upper = digits != digits.lower()
        return [text[:2] + format(v, "0%d%s" % (len(digits), "X" if upper else "x"))
                for v in (value + 1, value - 1) if v >= 0]
    if re.fullmatch(r"0|[1-9][0-9]*", text):
        return [str(int(text) + 1), str(int(text) - 1)]
    return []


def condition_end(tokens, i, lang):
    """For a statement `if`/`elif`/`while` at tokens[i], the index range of its
    condition, or None where it is not a statement condition."""
    if lang == "python":
        if tokens[i].text == "if" and i and tokens[i - 1].kind != "newline":
            return None  # a conditional expression, not a statement
        j, depth = i + 1, 0
        while not (depth == 0 and tokens[j].text == ":"):
            depth += tokens[j].text in OPENING
            depth -= tokens[j].text in CLOSING
            j += 1
        return i + 1, j - 1
    if tokens[i + 1].text != "(":
        return None
    return i + 2, matching(tokens, i + 1) - 1


def expression_end(tokens, i, lang):
    """For `return` at tokens[i], the index of the last token of its value
    (i when it returns nothing)."""
    j, depth = i + 1, 0
    while True:
        tok = tokens[j]
        if depth == 0 and (tok.kind == "newline" or tok.text in (";", "}")):
            return j - 1
        depth += tok.text in OPENING and tok.kind == "op"
        depth -= tok.text in CLOSING and tok.kind == "op"
        j += 1


def sites(tokens, lang, spans):
    """Every (operator, edits) of one language's classic mutation operators
    at the tokens inside spans; an edit is (start, end, replacement)."""
    table = LANGUAGES[lang]
    for i, tok in enumerate(tokens):
        if not any(a <= tok.start < b for a, b in spans):
            continue
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else Token("end", "", tok.end, tok.end, tok.line)
        here = [(tok.start, tok.end)]
        beside_string = (prev and prev.kind == "str") or nxt.kind == "str"
        unary = prev is None or (prev.kind == "op" and prev.text not in CLOSING) or \
            (prev.kind == "name" and prev.text in PREFIX_WORDS)
        if tok.kind == "op" and tok.text in RELATIONAL:
            for new in RELATIONAL[tok.text]:
                yield "relational", [here[0] + (new,)]
        elif tok.kind == "op" and tok.text in table["arithmetic"] and not beside_string and not unary:
            yield "arithmetic", [here[0] + (table["arithmetic"][tok.text],)]
        elif tok.kind == "op" and tok.text in table["bitwise"] and not unary:
            yield "bitwise", [here[0] + (table["bitwise"][tok.text],)]
        elif tok.kind == "op" and tok.text in table["increments"]:
            yield "increment", [here[0] + (table["increments"][tok.text],)]
        elif tok.kind == "num":
            for new in integer_variants(tok.text):
                if new.startswith("-") and lang == "js":
                    new = "(%s)" % new
                yield "constant", [here[0] + (new,)]
        elif tok.text in table["logical"] and tok.kind in ("name", "op"):
            yield "logical", [here[0] + (table["logical"][tok.text],)]
        elif (tok.text == "not" and tok.kind == "name" and prev.text != "is") or \
                (tok.text == "!" and tok.kind == "op"):
            yield "logical", [(tok.start, nxt.start, "")]  # `not x` -> `x`, `not in` -> `in`
        elif tok.text == "is" and tok.kind == "name":
            if nxt.text == "not":
                yield "logical", [(tok.end, nxt.end, "")]
            else:
                yield "logical", [(tok.end, tok.end, " not")]
        elif tok.text in ("break", "continue"):
            yield "break/continue", [here[0] + ("continue" if tok.text == "break" else "break",)]
        elif tok.text == "return" and tok.kind == "name":
            last = expression_end(tokens, i, lang)
            if last > i and not (last == i + 1 and nxt.text == table["none"]):
                yield "return value", [(nxt.start, tokens[last].end, table["none"])]
        elif tok.text in ("if", "elif", "while") and tok.kind == "name":
            extent = condition_end(tokens, i, lang)
            if extent is None:
                continue
            first, last = extent
            condition = tokens[first:last + 1]
            if any(t.text in RELATIONAL or t.text in CONDITION_WORDS for t in condition) or \
                    (len(condition) == 1 and condition[0].kind == "num"):
                continue  # comparisons are mutated above; `while 1` is a loop, not a test
            negation = "not (" if lang == "python" else "!("
            yield "negate condition", [(tokens[first].start, tokens[first].start, negation),
                                       (tokens[last].end, tokens[last].end, ")")]


def apply_edits(source, edits):
    """The source with the edits (start, end, text) made, from the last."""
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def shown_lines(source, edits):
    """The whole lines the edits touch, before and after, on one line each."""
    first = source.rfind("\n", 0, min(e[0] for e in edits)) + 1
    last = source.find("\n", max(e[1] for e in edits))
    last = len(source) if last < 0 else last
    region = source[first:last]
    moved = [(s - first, e - first, t) for s, e, t in edits]
    squash = lambda text: " ".join(text.split())  # noqa: E731
    return squash(region), squash(apply_edits(region, moved))


def make_mutants(source, lang, prefix, compiles):
    """All mutants of source: one edit each, deduplicated, those that do
    not compile dropped (their count is returned beside them)."""
    if lang == "python":
        tokens, spans = python_tokens(source), python_function_spans(source)
    else:
        tokens = js_tokens(source)
        spans = js_reachable_spans(tokens)
    mutants, seen, dropped = [], {source}, 0
    for operator, edits in sites(tokens, lang, spans):
        mutated = apply_edits(source, edits)
        if mutated in seen:
            continue
        seen.add(mutated)
        if not compiles(mutated):
            dropped += 1
            continue
        before, after = shown_lines(source, edits)
        line = source.count("\n", 0, edits[0][0]) + 1
        mutants.append(Mutant("%s-%03d" % (prefix, len(mutants) + 1), operator, line, before, after, mutated))
    return mutants, dropped


# --------------------------------------------------------------- processes

def run(command, *, cwd, env=None, timeout, stdout_path=None):
    """Runs command in a process group of its own; kills the whole group
    after timeout seconds. Returns (status, seconds, output); status is
    "timeout" when killed."""
    began = time.monotonic()
    out = open(stdout_path, "w") if stdout_path else subprocess.PIPE
    try:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True, text=True,
                                   errors="replace")
        with RUNNING_LOCK:
            RUNNING.add(process.pid)
        try:
            output, _ = process.communicate(timeout=timeout)
            status = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            status = "timeout"
        finally:
            with RUNNING_LOCK:
                RUNNING.discard(process.pid)
    finally:
        if stdout_path:
            out.close()
    if stdout_path:
        output = Path(stdout_path).read_text(errors="replace")
    return status, round(time.monotonic() - began, 2), output or ""


def tail(text, lines=4):
    """The last lines of a program's output, for a record."""
    return "\n".join(text.strip().splitlines()[-lines:])


def gate_declarations(gate):
    """punycheck flags for the declarations of a gate's [implementation]."""
    with open(gate, "rb") as f:
        implementation = tomllib.load(f)["implementation"]
    flags = []
    for key in ("domain", "errors", "max-encode", "max-decode", "timeout"):
        if key in implementation:
            flags += ["--" + key, str(implementation[key])]
    if implementation.get("annotations") is False:
        flags.append("--no-annotations")
    if "directions" in implementation:
        flags.append("--" + implementation["directions"])
    return flags


# ---------------------------------------------------------------- subjects

@dataclass
class Injection:
    spec: str  # the pipe: spec that answers with the mutant
    env: dict
    workdir: Path


class CPython:
    """CPython's Lib/encodings/punycode.py, injected through a sitecustomize
    that loads the mutant as sys.modules['encodings.punycode'] before any
    codec lookup; the adapter and the tests run unchanged."""
    key, prefix, lang = "cpython", "py", "python"
    gate = REPO / "adapters/gates/cpython_codec.toml"

    def __init__(self, args, out):
        self.out = out
        located = subprocess.run(["python3", "-c", "import encodings.punycode as m; print(m.__file__)"],
                                 capture_output=True, text=True, check=True)
        self.source_path = Path(located.stdout.strip())
        version = subprocess.run(["python3", "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        self.title = "CPython %s `Lib/encodings/punycode.py`" % version
        self.tests = None

    def compiles(self, text):
        try:
            compile(text, str(self.source_path), "exec")
            return True
        except SyntaxError:
            return False

    def inject(self, workdir, text):
        inject = workdir / "inject"
        inject.mkdir(parents=True, exist_ok=True)
        (inject / "punycode.py").write_text(text)
        (inject / "sitecustomize.py").write_text(
            "# written by tests/mutation/study.py: the mutant is encodings.punycode\n"
            "import encodings, importlib.util, sys\n"
            "spec = importlib.util.spec_from_file_location('encodings.punycode', %r)\n"
            "module = importlib.util.module_from_spec(spec)\n"
            "sys.modules['encodings.punycode'] = encodings.punycode = module\n"
            "spec.loader.exec_module(module)\n"
            "open(%r, 'a').close()\n" % (str(inject / "punycode.py"), str(workdir / "loaded")))
        env = dict(os.environ, PYTHONPATH=str(inject), PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(workdir))
        spec = "pipe:python3 " + shlex.quote(str(REPO / "adapters/python/cpython_codec.py"))
        return Injection(spec, env, workdir)

    def injected(self, injection):
        return (injection.workdir / "loaded").exists()

    def prepare_tests(self, args):
        """The tests of test.test_codecs that call into the codec, found by
        running each test of the module with a profiler watching the file
        (py_find_tests.py)."""
        found = subprocess.run(["python3", str(HERE / "py_find_tests.py")], capture_output=True, text=True,
                               timeout=600)
        self.tests = found.stdout.split()
        if not any(".PunycodeTest." in t for t in self.tests):
            raise SystemExit("test.test_codecs: no PunycodeTest found (%s)" % tail(found.stderr))
        return "%d tests of test.test_codecs that call into the codec (%s)" % (
            len(self.tests), ", ".join(sorted({t.split(".")[2] for t in self.tests})))

    def run_tests(self, injection):
        return run(["python3", "-m", "unittest", "-q"] + self.tests, cwd=injection.workdir,
                   env=injection.env, timeout=TESTS_SECONDS)

    def differential(self, injection, corpus_path):
        return run(["python3", str(HERE / "py_differential.py"), str(self.source_path),
                    str(injection.workdir / "inject/punycode.py"), str(corpus_path)],
                   cwd=injection.workdir, env=dict(os.environ), timeout=DIFFERENTIAL_SECONDS)


class PunycodeJs:
    """npm punycode 2.3.1: a temporary copy of the package directory holding
    the mutant, which the adapter loads by path."""
    key, prefix, lang = "punycode-js", "js", "js"
    gate = REPO / "adapters/gates/npm_punycode_2_3_1.toml"
    package = REPO / "adapters/node/node_modules/punycode-2.3.1"

    def __init__(self, args, out):
        self.out = out
        located = subprocess.run(["node", "-p", "require.resolve(%s)" % json.dumps(str(self.package))],
                                 capture_output=True, text=True, check=True)
        self.source_path = Path(located.stdout.strip())
        version = json.loads((self.package / "package.json").read_text())["version"]
        self.title = "npm punycode %s `%s`" % (version, self.source_path.name)
        self.tests = None

    def compiles(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".js", dir=self.out) as f:
            f.write(text)
            f.flush()
            return subprocess.run(["node", "--check", f.name], capture_output=True).returncode == 0

    def inject(self, workdir, text):
        package = workdir / "package"
        shutil.copytree(self.package, package, dirs_exist_ok=True)
        (package / self.source_path.name).write_text(text)
        if self.tests:
            (package / "tests").mkdir(exist_ok=True)
            shutil.copy(self.tests, package / "tests/tests.js")
        spec = "pipe:node %s %s" % (shlex.quote(str(REPO / "adapters/node/punycode_js.js")),
                                    shlex.quote(str(package)))
        return Injection(spec, dict(os.environ, TMPDIR=str(workdir)), workdir)

    def injected(self, injection):
        return True  # the adapter is given the copy's path

    def prepare_tests(self, args):
        """tests/tests.js of punycode.js v2.3.1: from --punycode-js-tests (a
        file, a checkout or a git directory) or a stored mirror; copied into
        the output directory, never into the project."""
        candidates = [args.punycode_js_tests] if args.punycode_js_tests else \
            sorted(glob.glob("/work/.mirror/mathiasbynens+punycode.js*"))
        for candidate in filter(None, candidates):
            path, target = Path(candidate), self.out / "punycode-js-tests.js"
            if path.is_file():
                shutil.copy(path, target)
            elif (path / "tests/tests.js").is_file():
                shutil.copy(path / "tests/tests.js", target)
            else:
                for git_dir in (path, path / "repo", path / "repo/.git", path / ".git"):
                    shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", "v2.3.1:tests/tests.js"],
                                           capture_output=True, text=True)
                    if shown.returncode == 0:
                        target.write_text(shown.stdout)
                        break
            if target.exists():
                self.tests = target
                return "tests/tests.js of punycode.js v2.3.1 from %s" % candidate
        return None  # the column says "not run"

    def run_tests(self, injection):
        return run(["node", str(HERE / "js_tests_shim.js"), str(injection.workdir / "package/tests/tests.js")],
                   cwd=injection.workdir, env=injection.env, timeout=TESTS_SECONDS)

    def differential(self, injection, corpus_path):
        return run(["node", str(HERE / "js_differential.js"), str(self.source_path),
                    str(injection.workdir / "package" / self.source_path.name), str(corpus_path)],
                   cwd=injection.workdir, env=injection.env, timeout=DIFFERENTIAL_SECONDS)


# ------------------------------------------------------------------ corpus

def random_code_points(rng):
    """A short random string as code points, mixing every range that matters."""
    length = rng.choice([rng.randint(0, 8)] * 16 + [rng.randint(9, 30)] * 3 + [rng.randint(31, 100)])
    ranges = [(0x20, 0x7E, 40), (0x00, 0x7F, 5), (0x80, 0xFF, 15), (0x100, 0xFFFF, 20),
              (0xD800, 0xDFFF, 3), (0x10000, 0x10FFFF, 10), (0x10FF00, 0x10FFFF, 7)]
    points = []
    for _ in range(length):
        low, high, _ = rng.choices(ranges, weights=[r[2] for r in ranges])[0]
        points.append(rng.randint(low, high))
    return points


def random_punycode(rng):
    """A random decoder input: half the encodings of random strings (by
    CPython's unmutated codec), often disturbed by one edit; half random
    strings over the digits, letters and hyphen."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-"
    if rng.random() < 0.5:
        text = codecs.encode("".join(map(chr, random_code_points(rng))), "punycode").decode("ascii")
        if text and rng.random() < 0.5:
            at = rng.randrange(len(text))
            edit = rng.choice(["swapcase", "replace", "delete", "insert"])
            new = rng.choice(alphabet)
            text = text[:at] + {"swapcase": text[at].swapcase(), "replace": new,
                                "delete": "", "insert": new + text[at]}[edit] + text[at + 1:]
        return text
    printable = alphabet + "".join(map(chr, range(0x20, 0x7F)))
    pool = alphabet if rng.random() < 0.9 else printable
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, 16)))


def make_corpus(path):
    """The fixed corpus of the differential: 10,000 random inputs each way
    (seed 3492) and edge cases: boundaries, overflow trips, the baselines'
    reproducers, non-ASCII bytes."""
    rng = random.Random(CORPUS_SEED)
    encode_edges = [[], [0x61], [0x2D], [0x61, 0x2D], [0x7F], [0x80], [0xFF], [0x100], [0xFFFF],
                    [0x10000], [0x10FFFF], [0xD800], [0xDFFF], [0xD800, 0xDC00], [0xDBFF, 0x61],
                    [0x61] * 3855 + [0x10FF71], [0x61] * 3855 + [0x10FF70],
                    [0x61] * 128 + [0x10FF70] + [0x61] * 1799, [0x10FFFF] * 600, [0x80] * 3000,
                    list(range(0x4E00, 0x4E00 + 300)), [ord(c) for c in "b\xfccher"]]
    decode_edges = ["", "-", "--", "a-", "-a", "a", "A", "z", "Z", "ZZZ", "0", "9", "a9", "99", "tda",
                    "Bach-", "bcher-kva", "4can8av2009b", "egbpdaj6bu4bxfgehfvwxn", "ls8h=", "\x81",
                    "\x81-", "a\x7f-b", "w29b", "fn32g", "ib9b89l", "i0902716", "i0902716_", "-k090271",
                    "99999999999a", "zzzzzzzzzzzzz", "a" * 3855 + "-sj045716a", "a" * 5 + "-" * 3 + "a",
                    "xn--w&", "xn--maana-pta"]
    corpus = {"encode": encode_edges + [random_code_points(rng) for _ in range(CORPUS_SIZE)],
              "decode": decode_edges + [random_punycode(rng) for _ in range(CORPUS_SIZE)],
              "decode_edges": decode_edges}
    path.write_text(json.dumps(corpus))
    return len(corpus["encode"]) + len(corpus["decode"])


# ------------------------------------------------------------------- judge

def punycheck_check(args, subject, injection, cases, extra):
    """One `punycheck check` of the injected code: (status, seconds, report)."""
    json_path = injection.workdir / "check.json"
    command = [str(args.punycheck), "check", "--impl", injection.spec] + gate_declarations(subject.gate) + \
        ["--seed", "1", "--cases", str(cases), "--json", str(json_path)] + extra
    status, seconds, output = run(command, cwd=injection.workdir, env=injection.env,
                                  timeout=HARD_KILL_SECONDS, stdout_path=injection.workdir / "check.txt")
    report = None
    if json_path.exists():
        report = json.loads(json_path.read_text())
        with open(json_path, "rb") as plain, gzip.open(str(json_path) + ".gz", "wb") as packed:
            shutil.copyfileobj(plain, packed)  # reports of broken mutants reach tens of MB
        json_path.unlink()
    return status, seconds, report, output


def punycheck_outcome(status, seconds, report, output):
    """A record of one check: its exit, and the new causes' keys and reproducers."""
    names = {0: "survived", 1: "killed", 2: "setup error", 3: "incomplete", 130: "interrupted",
             "timeout": "hard-killed after %d s" % HARD_KILL_SECONDS}
    record = {"status": status, "verdict": names.get(status, "exit %s" % status), "seconds": seconds}
    if report is None:
        record["output"] = tail(output)
        return record
    record["report_verdict"] = report.get("verdict")
    record["new_causes"] = [{k: c.get(k) for k in ("direction", "kind", "reference", "got", "reproduce")}
                            for c in report.get("causes", []) if not c.get("known")]
    record["baseline_gone"] = report.get("baseline", {}).get("gone", [])
    return record


def judge(args, subject, mutant, base, corpus_path, earlier=None):
    """The three judges of one mutant; returns its record. With `earlier`,
    the record of the same mutant from an earlier run (--reuse), only
    punycheck judges again: the differential and the own tests do not
    depend on punycheck's binary."""
    workdir = args.out / subject.key / mutant.id
    injection = subject.inject(workdir, mutant.source)
    record = {"id": mutant.id, "subject": subject.key, "file": str(subject.source_path),
              "line": mutant.line, "operator": mutant.operator, "before": mutant.before, "after": mutant.after}
    if earlier is not None:
        record["differential"] = earlier["differential"]
        record["tests"] = earlier["tests"]
        record["reused_from"] = str(args.reuse)
        check = punycheck_check(args, subject, injection, args.cases,
                                ["--baseline", str(base), "--seconds", str(CHECK_SECONDS)])
        record["punycheck"] = punycheck_outcome(*check)
        record["injected"] = subject.injected(injection)
        return record
    status, seconds, output = subject.differential(injection, corpus_path)
    (workdir / "loaded").unlink(missing_ok=True)  # the mark must come from punycheck's run
    try:
        record["differential"] = json.loads(output.strip().splitlines()[-1])
    except (ValueError, IndexError):
        record["differential"] = {"differing": 1, "first": None, "error": str(status) + ": " + tail(output)}
    record["differential"]["seconds"] = seconds
    if subject.tests:
        status, seconds, output = subject.run_tests(injection)
        record["tests"] = {"status": status, "killed": status != 0, "seconds": seconds, "output": tail(output, 3)}
    else:
        record["tests"] = {"status": "not run", "killed": None}
    check = punycheck_check(args, subject, injection, args.cases,
                            ["--baseline", str(base), "--seconds", str(CHECK_SECONDS)])
    record["punycheck"] = punycheck_outcome(*check)
    record["injected"] = subject.injected(injection)
    return record


def prepare_subject(args, subject):
    """Baseline on the unmutated code (cases x10), then a control check of it
    with the per-mutant settings, which must pass; returns the baseline."""
    base = args.out / subject.key / "baseline.toml"
    control = subject.inject(args.out / subject.key / "unmutated", subject.source_path.read_text())
    if not base.exists():
        status, seconds, _, output = punycheck_check(args, subject, control, args.cases * 10,
                                                     ["--write-baseline", str(base), "--seconds", "1200"])
        print("  baseline: exit %s in %.0f s, %s" % (status, seconds, base), flush=True)
        if not base.exists():
            raise SystemExit("no baseline written: %s" % tail(output))
    status, seconds, report, output = punycheck_check(args, subject, control, args.cases,
                                                      ["--baseline", str(base), "--seconds", str(CHECK_SECONDS)])
    print("  control check of the unmutated code: exit %s in %.0f s" % (status, seconds), flush=True)
    if status != 0 or not subject.injected(control):
        raise SystemExit("the unmutated code does not pass its own baseline: %s" % tail(output))
    if subject.tests:
        status, seconds, output = subject.run_tests(control)
        print("  own tests on the unmutated code: exit %s in %.0f s (%s)" % (status, seconds, tail(output, 1)),
              flush=True)
        if status != 0:
            raise SystemExit("the own tests fail on the unmutated code: %s" % tail(output))
    return base


# ------------------------------------------------------------------- table

def summarize(subject_title, made, dropped, records):
    """The Markdown rows of one subject, and its survivors' lines."""
    changed = [r for r in records if r["differential"].get("differing")]
    tests_run = any(r["tests"]["killed"] is not None for r in records)
    count = lambda rs, test: sum(1 for r in rs if test(r))  # noqa: E731
    by_check = lambda r: r["punycheck"]["status"] == 1  # noqa: E731
    by_tests = lambda r: bool(r["tests"]["killed"])  # noqa: E731
    rows = [
        ("mutants made (run)", "%d (%d; %d more did not compile)" % (made, len(records), dropped)),
        ("change behaviour on the corpus (differential)", count(records, lambda r: r in changed)),
        ("killed by the own test suite", count(records, by_tests) if tests_run else "not run"),
        ("killed by punycheck (exit 1)", count(records, by_check)),
        ("punycheck setup errors (exit 2)", count(records, lambda r: r["punycheck"]["status"] == 2)),
        ("punycheck other (exit 3, 130, hard kill)",
         count(records, lambda r: r["punycheck"]["status"] not in (0, 1, 2))),
        ("behaviour changers killed by punycheck", "%d of %d" % (count(changed, by_check), len(changed))),
        ("behaviour changers killed by the own tests",
         "%d of %d" % (count(changed, by_tests), len(changed)) if tests_run else "not run"),
        ("killed by punycheck, not by the own tests",
         count(records, lambda r: by_check(r) and not by_tests(r)) if tests_run else "not run"),
        ("killed by the own tests, not by punycheck",
         count(records, lambda r: by_tests(r) and not by_check(r)) if tests_run else "not run"),
        ("killed by punycheck, not by the differential", count(records, lambda r: by_check(r) and r not in changed)),
        ("no observable change, killed by nothing (maybe equivalent)",
         count(records, lambda r: r not in changed and not by_check(r) and not by_tests(r))),
        ("mutant not loaded (injection failed)", count(records, lambda r: not r.get("injected", True))),
    ]
    survivors = []
    for r in changed:
        if by_check(r):
            continue
        first = r["differential"].get("first") or {}
        example = "%s %r: %s -> %s" % (first.get("call"), first.get("input"), first.get("original"),
                                         first.get("mutant")) if first else r["differential"].get("error")
        survivors.append("- `%s` line %d (%s, punycheck %s, own tests %s, %d differing calls%s): `%s` -> `%s`; e.g. %s" % (
            r["id"], r["line"], r["operator"], r["punycheck"]["verdict"],
            {True: "kill", False: "pass", None: "not run"}[r["tests"]["killed"]],
            r["differential"]["differing"],
            ", messages only" if r["differential"].get("message_only") == r["differential"]["differing"] else "",
            r["before"][:120], r["after"][:120], example[:300]))
    return rows, survivors


def render(results):
    """The kill table of every subject run, and the survivors of each."""
    titles = [title for title, _, _, _ in results]
    summaries = [summarize(*result) for result in results]
    lines = ["| | " + " | ".join(titles) + " |", "|---" * (len(titles) + 1) + "|"]
    for i, (label, _) in enumerate(summaries[0][0]):
        lines.append("| %s | %s |" % (label, " | ".join(str(s[0][i][1]) for s in summaries)))
    for title, (_, survivors) in zip(titles, summaries):
        lines += ["", "Survivors of %s (change behaviour, not killed by punycheck): %d" % (title, len(survivors))]
        lines += survivors or ["- none"]
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subject", choices=["cpython", "punycode-js", "all"], default="all")
    parser.add_argument("--out", type=Path, help="output directory (default: a new temporary directory); "
                        "an existing one is resumed: mutants with a record are not run again")
    parser.add_argument("--punycheck", type=Path, help="the binary (default: a copy of target/release/punycheck "
                        "made at start in the output directory)")
    parser.add_argument("--limit", type=int, help="only the first N mutants of each subject")
    parser.add_argument("--jobs", type=int, default=1, help="mutants judged at once (default 1)")
    parser.add_argument("--cases", type=int, default=2000, help="generated questions per check (default 2000; "
                        "the baseline is recorded with 10 times as many)")
    parser.add_argument("--reuse", type=Path, help="an earlier run's results.jsonl: its differential and own-test "
                        "judgements of the same mutants (same subject, id, line and edit) are kept, and only "
                        "punycheck judges again")
    parser.add_argument("--punycode-js-tests", help="punycode.js's tests/tests.js (v2.3.1), a checkout or a git "
                        "directory (default: /work/.mirror/mathiasbynens+punycode.js*)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill PID stops it as Ctrl-C does
    args.out = (args.out or Path(tempfile.mkdtemp(prefix="punycheck-mutation-"))).resolve()
    if args.out == REPO or REPO in args.out.parents:
        parser.error("--out must be outside the repository")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.punycheck is None:
        args.punycheck = args.out / "punycheck"
        if not args.punycheck.exists():
            shutil.copy2(REPO / "target/release/punycheck", args.punycheck)
    args.punycheck = args.punycheck.resolve()
    print("output: %s\npunycheck: %s" % (args.out, args.punycheck), flush=True)

    corpus_path = args.out / "corpus.json"
    print("differential corpus: %d inputs" % make_corpus(corpus_path), flush=True)
    results_path = args.out / "results.jsonl"
    done = {}
    if results_path.exists():
        for line in results_path.read_text().splitlines():
            record = json.loads(line)
            done[(record["subject"], record["id"])] = record
    earlier = {}
    if args.reuse:
        for line in args.reuse.read_text().splitlines():
            record = json.loads(line)
            earlier[(record["subject"], record["id"])] = record
    write_lock = threading.Lock()
    started = time.monotonic()
    kinds = [CPython, PunycodeJs] if args.subject == "all" else \
        [{"cpython": CPython, "punycode-js": PunycodeJs}[args.subject]]
    results = []
    for kind in kinds:
        subject = kind(args, args.out)
        (args.out / subject.key).mkdir(exist_ok=True)
        mutants, dropped = make_mutants(subject.source_path.read_text(), subject.lang, subject.prefix,
                                        subject.compiles)
        print("\n%s: %s\n  %d mutants (%d more did not compile)" % (
            subject.title, subject.source_path, len(mutants), dropped), flush=True)
        print("  own tests: %s" % (subject.prepare_tests(args) or "not run (give --punycode-js-tests PATH)"),
              flush=True)
        base = prepare_subject(args, subject)
        todo = [m for m in mutants[:args.limit] if (subject.key, m.id) not in done]
        records = [done[(subject.key, m.id)] for m in mutants[:args.limit] if (subject.key, m.id) in done]

        def one(mutant):
            old = earlier.get((subject.key, mutant.id))
            if old is not None and (old["line"], old["before"], old["after"]) != \
                    (mutant.line, mutant.before, mutant.after):
                old = None  # another file or another tool made this id: judge it afresh
            record = judge(args, subject, mutant, base, corpus_path, old)
            if STOPPING.is_set():
                return  # its processes were killed: no record
            with write_lock:
                with open(results_path, "a") as f:
                    f.write(json.dumps(record) + "\n")
                records.append(record)
                print("  %s line %d %-16s diff %-5s tests %-8s punycheck %-12s %5.0f s  %s -> %s" % (
                    mutant.id, mutant.line, mutant.operator, record["differential"]["differing"],
                    record["tests"]["status"], record["punycheck"]["verdict"], time.monotonic() - started,
                    mutant.before[:50], mutant.after[:50]), flush=True)

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        try:
            for future in [pool.submit(one, m) for m in todo]:
                future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        records.sort(key=lambda r: r["id"])
        results.append((subject.title, len(mutants), dropped, records))

    table = render(results)
    (args.out / "table.md").write_text(table)
    print("\n" + table + "\nrecords: %s\ntable: %s\ntook %.0f s" % (
        results_path, args.out / "table.md", time.monotonic() - started), flush=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        STOPPING.set()
        with RUNNING_LOCK:
            for pid in RUNNING:
                os.killpg(pid, signal.SIGKILL)
        sys.exit(130)
