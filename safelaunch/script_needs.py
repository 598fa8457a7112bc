"""What a training script will ask of the machine: the NCCL backend, CUDA tensors.

The script and the modules it imports from its own directory are parsed (never run) and
searched for a hard-coded ``"nccl"`` backend and for CUDA use (``.cuda()``,
``torch.cuda.set_device``, ``"cuda"``/``"cuda:0"`` devices).  A file that also mentions a
fallback (``"gloo"``, ``torch.cuda.is_available()``, ``is_nccl_available``) asks
conditionally, and does not count.  Reading is bounded: at most ``MAX_FILES`` files of at
most ``MAX_BYTES`` each, imports followed ``MAX_DEPTH`` levels deep.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 40
MAX_BYTES = 1 << 20
MAX_DEPTH = 3
FALLBACK_NAMES = {"is_available", "is_nccl_available", "device_count"}


@dataclass(frozen=True)
class Use:
    path: Path
    line: int
    what: str

    def where(self) -> str:
        return f"{self.path.name}:{self.line}"


@dataclass
class Needs:
    nccl: list[Use] = field(default_factory=list)
    cuda: list[Use] = field(default_factory=list)


def _is_cuda_device(text: str) -> bool:
    return text == "cuda" or text.startswith("cuda:")


class _Finder(ast.NodeVisitor):
    def __init__(self, path: Path) -> None:
        self.path = path
        self.nccl: list[Use] = []
        self.cuda: list[Use] = []
        self.fallback = False
        self.imports: list[tuple[str, int]] = []  # module name, relative level

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            text = node.value.strip().lower()
            if text == "nccl":
                self.nccl.append(Use(self.path, node.lineno, "backend 'nccl'"))
            elif text == "gloo":
                self.fallback = True
            elif _is_cuda_device(text):
                self.cuda.append(Use(self.path, node.lineno, f"device {node.value!r}"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in FALLBACK_NAMES:
            self.fallback = True
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "cuda" and not node.args:
            self.cuda.append(Use(self.path, node.lineno, ".cuda()"))
        if (isinstance(func, ast.Attribute) and func.attr == "set_device"
                and isinstance(func.value, ast.Attribute) and func.value.attr == "cuda"):
            self.cuda.append(Use(self.path, node.lineno, "torch.cuda.set_device"))
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.imports += [(alias.name, 0) for alias in node.names]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        self.imports.append((base, node.level))
        self.imports += [(f"{base}.{alias.name}" if base else alias.name, node.level)
                         for alias in node.names]


def _local_module(name: str, level: int, importer: Path, root: Path) -> Path | None:
    base = importer.parent if level else root
    for _ in range(max(level - 1, 0)):
        base = base.parent
    parts = [part for part in name.split(".") if part]
    if not parts or any(not part.isidentifier() for part in parts):
        return None
    for candidate in (base.joinpath(*parts).with_suffix(".py"),
                      base.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def scan(script: Path) -> Needs:
    """The hard needs of ``script`` and its local imports (empty when it cannot be read)."""
    needs = Needs()
    root = script.parent
    queue: list[tuple[Path, int]] = [(script, 0)]
    seen: set[Path] = set()
    while queue and len(seen) < MAX_FILES:
        path, depth = queue.pop(0)
        try:
            resolved = path.resolve()
            if resolved in seen or not resolved.is_file():
                continue
            seen.add(resolved)
            with open(resolved, "rb") as fh:
                source = fh.read(MAX_BYTES + 1)
            if len(source) > MAX_BYTES:
                continue
            tree = ast.parse(source, filename=str(path))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        finder = _Finder(path)
        try:
            finder.visit(tree)
        except RecursionError:
            continue
        if not finder.fallback:
            needs.nccl += finder.nccl
            needs.cuda += finder.cuda
        if depth < MAX_DEPTH:
            for name, level in finder.imports:
                found = _local_module(name, level, path, root)
                if found is not None:
                    queue.append((found, depth + 1))
    return needs
