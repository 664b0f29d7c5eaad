"""Every line a person reads is in the catalogs (mudwiz/texts, docs/translating.md).

Two checks on the source. The catalog check: Babel extracts every marked text (``_``, ``later``, ``_n``,
``later_n``, ``N_``) of each domain, the core's and each game package's, and each must have a Japanese msgstr, not
fuzzy, with the msgid's ``{fields}``. The marking check: an AST scan of mudwiz/ for string literals a person reads
that are not marked. A literal is taken for one when it is

- any literal of two English words or more (``"the game is over"``, ``f"no table {n}"``), wherever it is; or
- a literal holding a word (two letters or more) where the code shows it to a person: the message of an error a
  user is shown (a ``MudwizError`` subclass, found by reading the class tree), what ``notice`` says, a command's
  help (``@command``'s third argument) and what a command returns (its ``ok``: ``"bye"``), the ``"message"``,
  ``"text"`` and ``"reason"`` of a message dict (docs/protocol.md's human texts).

Not looked at: docstrings, dict keys, subscripts, comparisons (``kind == "game over"``), the arguments of log calls
and of other exceptions than a user's (``ValueError``, ``StoreError``: a programmer's or the operator's), and of the
marking functions themselves. A literal that is no text for a person (a protocol word, an MSSP field) says so on
its line: ``# i18n: not text (why)``. ``EXEMPT`` lists whole modules no person reads in a language of theirs, with
why; ``PENDING`` the modules not converted yet, each of which must still hold an unmarked text (one that holds
none must leave the list, so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import mudwiz
from mudwiz.texts import catalogs

ROOT = Path(mudwiz.__file__).resolve().parent
WORD = re.compile(r"[A-Za-z]{2,}")
TWO_WORDS = re.compile(r"[A-Za-z]{2,}[,:;]? +[A-Za-z]{2,}")
MARKERS = {"_", "later", "_n", "later_n", "N_", "now", "now_n"}
SENDERS = {"notice"}  # a session's one line to its user
TEXT_KEYS = {"message", "text", "reason"}
LOGGING = {"info", "debug", "warn", "error", "failure", "critical", "msg", "emit"}  # a log's lines are English

# Modules whose strings no person reads in their own language, and why.
EXEMPT: dict[str, str] = {
    "texts/catalogs.py": "the translators' tool: its lines are for whoever keeps the catalogs",
    "cli.py": "the operator's command line, as the logs: English",
    "admin.py": "the operator's `mudwiz admin`: English, as the logs",
    "supervisor.py": "the operator's process supervisor: logs",
    "service.py": "the server's settings and start: the operator's",
    "compiled.py": "the build's list of compiled modules",
    "settings.py": "settings as the operator sets them",
    "store/": "the store's errors are the operator's (StoreError), never a user's",
}

# Modules whose user-visible texts are not marked yet (converted module by module; each leaves the list when done).
PENDING: set[str] = {
    # each game's package: its own catalog and domain (its texts.py), converted on its own
}


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _listed(relative: str, listing: set[str] | dict[str, str]) -> bool:
    return any(relative == entry or (entry.endswith("/") and relative.startswith(entry)) for entry in listing)


def _modules() -> dict[str, tuple[ast.Module, list[str]]]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found[_relative(path)] = (ast.parse(text), text.splitlines())
    return found


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def error_classes(trees: list[ast.Module]) -> set[str]:
    """``MudwizError`` and every class that derives from it, anywhere in mudwiz/, by name."""
    found = {"MudwizError"}
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    while True:
        more = {c.name for c in classes if c.name not in found and any(_name(b) in found for b in c.bases)}
        if not more:
            return found
        found |= more


def _literals(node: ast.expr | None) -> Iterator[ast.expr]:
    """The string literals ``node`` shows as they are: itself, both sides of ``+`` and of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
        yield node
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _literals(node.left)
        yield from _literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _words(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    return "".join(str(v.value) for v in ast.walk(node) if isinstance(v, ast.Constant) and isinstance(v.value, str))


def _docstrings(tree: ast.Module) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


PRAGMA = "# i18n: not text"


def _skipped(tree: ast.Module, errors: set[str]) -> set[int]:
    """Literals no reader sees as words: keys, subscripts, comparisons, log lines, other exceptions' messages,
    marked texts, docstrings."""
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, ast.Dict):
            parts = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Subscript):
            parts = [node.slice]
        elif isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            called = _name(node.func)
            programmers = called.endswith(("Error", "Exception", "Exit")) and called not in errors
            if called in MARKERS | LOGGING or called == "get" or programmers:
                parts = [*node.args, *(k.value for k in node.keywords)]
            elif called == "command":  # a command's name and usage: what is typed, in every language
                parts = list(node.args[:2])
        for part in parts:
            skip |= {id(n) for n in ast.walk(part)}
    return skip


def unmarked(relative: str, tree: ast.Module, errors: set[str], lines: list[str] | None = None) -> Iterator[str]:
    """``relative``'s literals a person reads that are not marked, as ``path:line: text``; ``lines``, its source's
    lines, for the pragma."""
    for literal in unmarked_literals(tree, errors, lines):
        yield f"{relative}:{literal.lineno}: {_words(literal)[:70]!r}"


def unmarked_literals(tree: ast.Module, errors: set[str], lines: list[str] | None = None) -> Iterator[ast.expr]:
    """The literal nodes ``unmarked`` reports, in the order of the source."""
    skip = _skipped(tree, errors)
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in ast.walk(n) if v is not n}
    shown = [n for n in ast.walk(tree) if (isinstance(n, ast.Constant) and isinstance(n.value, str)
                                           or isinstance(n, ast.JoinedStr))
             and id(n) not in skip and id(n) not in parts and TWO_WORDS.search(_words(n))]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and (_name(node.func) in errors | SENDERS):
            shown += _literals(node.args[0])
        elif isinstance(node, ast.Dict):
            shown += [lit for k, v in zip(node.keys, node.values, strict=True)
                      if isinstance(k, ast.Constant) and k.value in TEXT_KEYS for lit in _literals(v)]
        elif isinstance(node, ast.FunctionDef):
            commands = [d for d in node.decorator_list if isinstance(d, ast.Call) and _name(d.func) == "command"]
            for decorator in commands:
                shown += _literals(decorator.args[2]) if len(decorator.args) > 2 else []
                shown += [lit for r in ast.walk(node) if isinstance(r, ast.Return) for lit in _literals(r.value)]
    seen = set()
    for literal in sorted(shown, key=lambda n: (n.lineno, n.col_offset)):
        text = _words(literal)
        if id(literal) in seen or not WORD.search(text):
            continue
        seen.add(id(literal))
        span = range(literal.lineno - 1, literal.end_lineno or literal.lineno)
        if lines is None or not any(PRAGMA in lines[n] for n in span):
            yield literal


@pytest.fixture(scope="module")
def findings() -> dict[str, list[str]]:
    modules = _modules()
    errors = error_classes([tree for tree, _ in modules.values()])
    return {relative: list(unmarked(relative, tree, errors, lines)) for relative, (tree, lines) in modules.items()
            if not _listed(relative, EXEMPT)}


def test_every_user_visible_text_outside_the_pending_modules_is_marked(findings: dict[str, list[str]]) -> None:
    wrong = [line for relative, lines in findings.items() if not _listed(relative, PENDING) for line in lines]
    assert not wrong, "texts a person reads, not marked for the catalog (mudwiz.texts: later/_):\n" + "\n".join(wrong)


def test_each_pending_entry_still_holds_an_unmarked_text(findings: dict[str, list[str]]) -> None:
    """A module (or directory) done leaves ``PENDING``, so the list says what is left."""
    done = [entry for entry in PENDING
            if not any(lines for relative, lines in findings.items() if _listed(relative, {entry}))]
    assert not done, f"converted: take these out of PENDING: {sorted(done)}"


def test_the_check_finds_what_it_is_for() -> None:
    """The scan itself: each kind of unmarked text is found, a marked one is not."""
    source = '''
class Refused(BadOption): pass
raise Refused(f"no table {n}")
raise BadCommand(later("marked {n}", n=n))
session.notice("you are " + state)
deliver({"type": "notice", "text": "hello there"})
x = {"message": later("fine")}
@command("x", "/x", "does x", scope=1)
def _x(lobby, session, arg):
    return "done" if arg else later("fine")
'''
    tree = ast.parse(source)
    errors = error_classes([ast.parse("class BadOption(MudwizError): pass"), tree])
    found = [line.split(": ", 1)[1] for line in unmarked("commands/x.py", tree, errors, source.splitlines())]
    assert found == ["'no table '", "'you are '", "'hello there'", "'does x'", "'done'"]
    other = 'lines = ["Online now", title]\nif kind == "game over":\n    pass\nlog.info("a b c")\n' \
            'raise ValueError("not a number")\nMSSP = "Player versus Player"  # i18n: not text (MSSP)\n'
    assert [line.split(": ", 1)[1] for line in unmarked("x.py", ast.parse(other), set(), other.splitlines())] \
        == ["'Online now'"]


@pytest.mark.parametrize("source", catalogs.sources(), ids=lambda s: s.domain)
def test_every_marked_text_has_its_japanese(source: catalogs.Source) -> None:
    wrong = list(catalogs.missing(source, "ja"))
    assert not wrong, (f"{source.domain}: update and translate {source.po('ja')} (scripts/i18n.py update "
                       f"{source.domain}):\n" + "\n".join(wrong))
