"""Task signatures from what a benchmark states: a PyTorch reference module, or a task text.

A reference (`class Model(nn.Module)` with `__init__`, `forward`, `get_inputs`,
`get_init_inputs`: the MultiKernelBench and KernelBench layout) is read with Python's `ast`,
never imported: the `nn` modules `__init__` builds (`self.conv = nn.Conv2d(...)`), the torch
calls and arithmetic of `forward` in order with their constant keyword arguments (`dim=1`), the
`__init__` parameters, the shapes and dtypes `get_inputs` builds, the module-level integer
constants, and the words of the docstring and comments. The task name's own words count too:
a benchmark that calls a task `swish` states that it is a swish whatever `forward` spells out.

A text that is not Python (a task description from a table) gives the ops its words name.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Iterator

from schemas.nesting import parse_python
from schemas.taskops import (
    model_lines,
    module_constructors,
    name_ops,
    ops_of_words,
    text_words,
    torch_ops,
)
from schemas.tasks import TaskSignature

_ARITHMETIC = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}
_REDUCTIONS = frozenset({"min", "max", "sum", "mean", "prod", "argmax", "argmin", "logsumexp", "softmax"})
_RANK = re.compile(r"([123])d$")
_CREATORS = frozenset({"rand", "randn", "randint", "ones", "zeros", "empty", "full", "rand_like", "tensor"})


def _callee(node: ast.expr) -> str:
    """`torch.nn.functional.gelu` -> "gelu"; `x.sum` -> "sum"; `self.conv` -> "" (a module)."""
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return ""
        return node.attr.lower()
    if isinstance(node, ast.Name):
        return node.id.lower()
    return ""


def _literal(node: ast.expr) -> str:
    try:
        return repr(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ast.unparse(node)


def _is_transpose(node: ast.expr) -> bool:
    """`A.T`, `A.mT`, `A.t()`, `A.transpose(0, 1)`, `torch.transpose(A, 0, 1)`."""
    if isinstance(node, ast.Attribute):
        return node.attr in ("T", "mT")
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("t", "transpose")
    )


class _Forward(ast.NodeVisitor):
    """The ops of a method body in evaluation order (arguments before the call that uses them)."""

    def __init__(
        self, modules: dict[str, tuple[str, ...]], methods: dict[str, ast.FunctionDef] | None = None
    ) -> None:
        self.modules = modules  # self.<attr> -> ops of the nn module it holds
        # the class's other methods, read where `forward` calls them (`self.forward_features(x)`)
        self.methods = dict(methods or {})
        self.ops: list[str] = []
        self.calls: list[str] = []
        self.reductions: list[str] = []
        self.transposed: set[str] = set()  # "a", "b": matmul operands taken transposed

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.generic_visit(node)
        op = _ARITHMETIC.get(type(node.op))
        if op and len(self.ops) < MAX_BUILT_OPS:
            self.ops.append(op)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            method = self.methods.pop(func.attr, None)  # popped: each read once, never recursively
            for statement in method.body if method else ():
                self.visit(statement)
            ops = self.modules.get(func.attr, ())
            name = f"self.{func.attr}"
        else:
            name = _callee(func)
            ops = torch_ops(name)
        if not ops:
            return
        kwargs = [f"{k.arg}={_literal(k.value)}" for k in node.keywords if k.arg]
        self.ops.extend(ops[: max(0, MAX_BUILT_OPS - len(self.ops))])
        if "matmul" in ops:
            self.transposed |= {
                side for side, arg in zip("ab", node.args[:2], strict=False) if _is_transpose(arg)
            }
        call = f"{name}({', '.join(kwargs)})"
        self.calls.append(call)
        if name in _REDUCTIONS and (kwargs or len(node.args) > 1):
            dims = [a for a in kwargs if a.startswith("dim")] or [_literal(a) for a in node.args[1:2]]
            self.reductions.append(f"{name}({', '.join(dims)})")


def _module_ops(init: ast.FunctionDef, classes: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """`self.conv = nn.Conv2d(...)` -> {"conv": ("conv",)}; an `nn.Sequential` gives its parts, and
    a module class the file defines (`classes`: its name -> the ops of its `forward`) its ops."""
    modules: dict[str, tuple[str, ...]] = {}
    aliases = {  # `block = Bottleneck`
        target.id: classes[node.value.id]
        for node in ast.walk(init)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in classes
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    classes = {**classes, **aliases}
    for node in ast.walk(init):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        for target in node.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                modules[target.attr] = tuple(_built_ops(node.value, classes))
    return modules


def _built_ops(value: ast.expr, classes: dict[str, tuple[str, ...]]) -> list[str]:
    """The ops of the modules an expression builds: `nn` modules by their names, a class of the
    file by its `forward`, built (`FireModule(...)`) or handed to a builder
    (`self._make_layer(Bottleneck, 64, 3)`)."""
    ops: list[str] = []
    for node in _in_order(value):
        if len(ops) >= MAX_BUILT_OPS:
            break
        if isinstance(node, ast.Name) and node.id in classes:
            ops.extend(classes[node.id])
        elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in classes):
            ops.extend(torch_ops(_callee(node.func)))
    return ops[:MAX_BUILT_OPS]


# The ops a built module, a module class or a `forward` counts at most: each class of a file may
# build the one before it many times over (a hostile reference of eight classes, each building
# the last ten times, is 10^8 ops unbounded); MultiKernelBench's longest `forward` has 112.
MAX_BUILT_OPS = 1024


def _in_order(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a tree in the order they are written (`ast.walk` goes level by level: the
    layers of an `nn.Sequential` came out before the blocks inside them)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(ast.iter_child_nodes(current))))


def _read_forward(
    forward: ast.FunctionDef,
    init: ast.FunctionDef | None,
    classes: dict[str, tuple[str, ...]],
    methods: dict[str, ast.FunctionDef],
) -> _Forward:
    """What a `forward` computes: the modules `init` builds (`classes`' among them) and the other
    `methods` it calls included."""
    visitor = _Forward(_module_ops(init, classes) if init else {}, methods)
    for statement in forward.body:
        visitor.visit(statement)
    return visitor


def _forward_of(cls: ast.ClassDef, classes: dict[str, tuple[str, ...]]) -> _Forward | None:
    """The ops a module class's `forward` computes, its modules' included; None without one."""
    methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
    forward = methods.get("forward")
    return _read_forward(forward, methods.get("__init__"), classes, methods) if forward else None


def _class_ops(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The ops of each module class the file defines before `Model` (`FireModule`, `NewGELU`), in
    the file's order, so that a helper built from an earlier one has its ops: what `Model`'s
    modules of those classes compute."""
    classes: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name != "Model":
            visitor = _forward_of(node, classes)
            classes[node.name] = tuple(visitor.ops) if visitor else ()  # bounded by `_Forward`
    return classes


def module_switches(function: ast.FunctionDef) -> dict[str, bool]:
    """The switches a function builds its modules or makes its calls with, as literals
    (`bidirectional=True`, `batch_first=False`, `align_corners=True`): siblings differ there
    (`gru` / `gru_birectional`, `bilinear_upsample` / `trilinear_upsample`)."""
    return {
        keyword.arg: keyword.value.value
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, bool)
    }


_RECURRENT = frozenset({"lstm", "gru", "rnn"})


def returned_state(forward: ast.FunctionDef, modules: dict[str, tuple[str, ...]]) -> str:
    """What a recurrent reference returns of its module's results (`output, h_n = self.gru(x)`):
    "output", "h_n" or "c_n" (an LSTM's state is the pair (h_n, c_n)); "" for anything else.
    Siblings differ only here (`gru` / `gru_hidden`, `lstm_hn` / `lstm_cn`)."""
    roles: dict[str, tuple[str, str]] = {}  # name -> (its role, the module's op)
    returned: ast.expr | None = None
    for node in ast.walk(forward):
        if isinstance(node, ast.Return):
            returned = node.value
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        callee = node.value.func
        name = callee.attr if isinstance(callee, ast.Attribute) else ""
        kind = next((op for op in modules.get(name, ()) if op in _RECURRENT), "")
        target = node.targets[0]
        if kind and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            for element, role in zip(target.elts, ("output", "state"), strict=True):
                if isinstance(element, ast.Name):
                    roles[element.id] = (role, kind)
    index = None
    if isinstance(returned, ast.Subscript) and isinstance(returned.slice, ast.Constant):
        index, returned = returned.slice.value, returned.value
    role, kind = roles.get(returned.id, ("", "")) if isinstance(returned, ast.Name) else ("", "")
    if role == "output" and index is None:
        return "output"
    if role == "state" and kind != "lstm" and index is None:
        return "h_n"
    if role == "state" and kind == "lstm" and index in (0, 1):
        return "c_n" if index == 1 else "h_n"
    return ""


def _dims(nodes: list[ast.AST]) -> list[int]:
    """Spatial ranks of the modules and functions a reference uses: `nn.Conv3d` -> 3."""
    ranks = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            name = _callee(node.func)
            m = _RANK.search(name)
            if m and torch_ops(name):
                ranks.add(int(m.group(1)))
    return sorted(ranks)


def _functions(nodes: list[ast.AST]) -> dict[str, ast.FunctionDef]:
    """Each function name's first definition, the benchmark's `Model` class's methods before any
    other: a reference may define the modules it builds above it (`NewGELU` before `Model`)."""
    found: dict[str, ast.FunctionDef] = {}
    for node in nodes:
        if isinstance(node, ast.ClassDef) and node.name == "Model":
            found.update((m.name, m) for m in node.body if isinstance(m, ast.FunctionDef))
    for node in nodes:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, node)
    return found


def _constants(tree: ast.Module) -> list[int]:
    values = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
            continue
        if isinstance(node.value.value, int) and not isinstance(node.value.value, bool):
            values.append(int(node.value.value))
    return values


def _inputs(func: ast.FunctionDef | None) -> tuple[list[list[str]], list[str]]:
    shapes: list[list[str]] = []
    dtypes: list[str] = []
    if func is None:
        return shapes, dtypes
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and _callee(node.func) in _CREATORS:
            # `randint(low, high, size)`: the size is its last argument, not all three
            args = node.args[-1:] if _callee(node.func) == "randint" else node.args
            if len(args) == 1 and isinstance(args[0], ast.Tuple | ast.List):
                args = args[0].elts
            shapes.append([ast.unparse(a) for a in args])
            dtype = next((ast.unparse(k.value) for k in node.keywords if k.arg == "dtype"), "float32")
            dtypes.append(dtype.removeprefix("torch."))
    return shapes, dtypes


_COMMENT = re.compile(r"#([^\n]*)")


def _comment_words(text: str) -> list[str]:
    """Words of `#` comments (a `#` inside a string counts too: harmless, and much cheaper than
    tokenising every reference)."""
    return [w for comment in _COMMENT.findall(text) for w in text_words(comment)]


def signature_from_text(task: str, text: str) -> TaskSignature:
    """A task stated in words: the ops its name and text name, in the order they appear."""
    words = text_words(text)
    ops = list(dict.fromkeys([*name_ops(task), *ops_of_words(words)]))
    return TaskSignature(task=task, ops=ops, words=sorted(set(words)), source="text")


def read_reference(task: str, text: str) -> TaskSignature:
    """The signature of a PyTorch reference; a text that is not Python, or Python nested too
    deep to parse or to walk (a hostile file), is read as a description."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError):
        return signature_from_text(task, text)
    try:
        sig = _tree_signature(task, text, tree)
    except RecursionError:  # parsed, but too deep for the walks (`_Forward`, `_number`, `ast.unparse`)
        sig = None
    return sig if sig is not None else signature_from_text(task, text)


def _tree_signature(task: str, text: str, tree: ast.Module) -> TaskSignature | None:
    """The signature a parsed reference states, None when it has no `forward`."""
    nodes = list(ast.walk(tree))  # walked once; every reader below filters this list
    functions = _functions(nodes)
    forward = functions.get("forward")
    if forward is None:
        return None
    init = functions.get("__init__")
    classes = _class_ops(tree)
    visitor = _read_forward(forward, init, classes, {n: f for n, f in functions.items() if f is not forward})
    # `nn.Linear` and `F.linear` multiply by the weight transposed (x @ W.T).
    if any(isinstance(n, ast.Call) and _callee(n.func) == "linear" for n in nodes):
        visitor.transposed.add("b")
    shapes, dtypes = _inputs(functions.get("get_inputs"))
    init_params = [a.arg for a in init.args.args[1:]] if init else []
    words: list[str] = []
    for node in nodes:
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            words.extend(text_words(ast.get_docstring(node) or ""))
    words.extend(_comment_words(text))
    init_values = _init_values(functions.get("get_init_inputs"))
    env = _module_env(tree)  # the module's constants, for the input and weight shapes
    return TaskSignature(
        task=task,
        ops=[*name_ops(task), *visitor.ops],
        forward_ops=list(visitor.ops),
        calls=visitor.calls,
        reductions=visitor.reductions,
        init_params=init_params,
        input_shapes=shapes,
        input_dtypes=dtypes,
        constants=sorted(set(_constants(tree)) | set(init_values)),
        dims=_dims(nodes),
        words=sorted(set(words)),
        values=stated_values(tree, functions),
        constructor=list(module_constructors(text).get("Model", ())),
        input_dims=input_dims(env, functions.get("get_inputs")),
        weight_dims=weight_dims(env, functions),
        transposed=sorted(visitor.transposed),
        returns=returned_state(forward, visitor.modules),
        switches={**(module_switches(init) if init else {}), **module_switches(forward)},
        model_lines=sorted(model_lines(text)),
        settings=sorted(env),
        blocks=[list(ops) for ops in classes.values() if ops],
    )


_SAFE_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def _number(node: ast.AST) -> float | None:
    """The value of a numeric literal or of arithmetic on literals (`1024 * 2`, `-0.01`, `2**10`),
    computed without evaluating code."""
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    ):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if inner is not None else None
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _number(node.left), _number(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Pow):
        if abs(right) > 64 or abs(left) > 1 << 20 or (left < 0 and not right.is_integer()):
            return None
        return float(left**right)
    fn = _SAFE_BINOPS.get(type(node.op))
    try:
        return float(fn(left, right)) if fn else None
    except ArithmeticError:
        return None


def stated_values(tree: ast.Module, functions: dict[str, ast.FunctionDef]) -> list[float]:
    """Every number a reference states: module-level assignments (tuples element-wise, arithmetic
    evaluated), then every literal of `get_init_inputs`, `forward` and `__init__` (defaults too).
    A solution written for the task tends to spell the same numbers (a slope, an eps, a shape)."""
    values: set[float] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            parts = node.value.elts if isinstance(node.value, ast.Tuple | ast.List) else [node.value]
            values.update(v for v in map(_number, parts) if v is not None)
    for name in ("get_init_inputs", "forward", "__init__"):
        func = functions.get(name)
        for sub in ast.walk(func) if func is not None else ():
            if isinstance(sub, ast.Constant | ast.UnaryOp | ast.BinOp):
                value = _number(sub)
                if value is not None:
                    values.add(value)
    return sorted(values)


def _init_values(func: ast.FunctionDef | None) -> list[int]:
    if func is None:
        return []
    return [
        int(n.value)
        for n in ast.walk(func)
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool)
    ]


def _module_env(tree: ast.Module) -> dict[str, object]:
    """The module's constants, evaluated: `batch_size = 16`, `height = width = 256`."""
    env: dict[str, object] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        value = _evaluate(node.value, env)
        for target in node.targets:  # `height = width = 256`, `D, H, W = 24, 32, 32`
            if isinstance(target, ast.Name) and value is not None:
                env[target.id] = value
            elif (
                isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts)
            ):
                env.update(
                    (t.id, v) for t, v in zip(target.elts, value, strict=True) if isinstance(t, ast.Name)
                )
    return env


def input_dims(env: dict[str, object], get_inputs: ast.FunctionDef | None) -> list[list[int]]:
    """The shapes `get_inputs` builds, evaluated from the module's constants `env`
    (`torch.rand(batch_size, in_channels, depth, width, height)` -> [16, 3, 64, 64, 64]); a
    tensor whose shape is not plain integer arithmetic on them is left out."""
    if get_inputs is None:
        return []
    shapes = []
    for call in ast.walk(get_inputs):
        if isinstance(call, ast.Call) and _callee(call.func) in _CREATORS - {"randint", "full", "tensor"}:
            dims: list[object] = []
            for arg in call.args:
                value = _evaluate(arg.value if isinstance(arg, ast.Starred) else arg, env)
                dims.extend(value if isinstance(value, tuple) else [value])
            sizes = [d for d in dims if isinstance(d, int) and d > 0]
            if dims and len(sizes) == len(dims):
                shapes.append(sizes)
    return shapes


_LARGEST = 1 << 53
_CONV_MODULE = re.compile(r"conv(transpose)?([123])d")
_CONV_ARGS = ("in_channels", "out_channels", "kernel_size")


def weight_dims(env: dict[str, object], functions: dict[str, ast.FunctionDef]) -> list[list[int]]:
    """The weight shapes of the convolutions `__init__` builds, with the values `get_init_inputs`
    passes: `nn.Conv2d(in_channels, out_channels, kernel_size)` with [32, 64, (5, 9)] ->
    [64, 32, 5, 9] (`env`: the module's constants). A solution specialised to its task pins them
    as it pins its input shapes."""
    init, get_init = functions.get("__init__"), functions.get("get_init_inputs")
    returned = (
        next((n.value for n in ast.walk(get_init) if isinstance(n, ast.Return)), None) if get_init else None
    )
    if init is None or not isinstance(returned, ast.List | ast.Tuple):
        return []
    scope = dict(env)
    params = [a.arg for a in init.args.args[1:]]
    defaults = init.args.defaults
    scope.update(
        zip(
            params[max(0, len(params) - len(defaults)) :], (_evaluate(d, env) for d in defaults), strict=False
        )
    )
    scope.update(
        (p, v)
        for p, v in zip(params, (_evaluate(e, env) for e in returned.elts), strict=False)
        if v is not None
    )
    shapes = []
    for call in ast.walk(init):
        if not isinstance(call, ast.Call):
            continue
        module = _CONV_MODULE.fullmatch(_callee(call.func))  # `nn.Conv2d` -> "conv2d"
        if module is None:
            continue
        args = dict(zip(_CONV_ARGS, (_evaluate(a, scope) for a in call.args), strict=False))
        args.update((k.arg, _evaluate(k.value, scope)) for k in call.keywords if k.arg)
        shape = _conv_weight(args, int(module.group(2)), bool(module.group(1)))
        if shape:
            shapes.append(shape)
    return shapes


def _conv_weight(args: dict[str, object], rank: int, transposed: bool) -> list[int]:
    """[out, in / groups, *kernel] (a transposed conv: [in, out / groups, *kernel]), [] when an
    argument is not a plain positive integer."""
    cin, cout, kernel, groups = (args.get(k) for k in (*_CONV_ARGS, "groups"))
    groups = 1 if groups is None else groups
    kernel = [kernel] * rank if isinstance(kernel, int) else list(kernel) if isinstance(kernel, tuple) else []
    sizes = [cin, cout, groups, *kernel]
    if len(kernel) != rank or not all(isinstance(v, int) and v > 0 for v in sizes):
        return []
    assert isinstance(cin, int) and isinstance(cout, int) and isinstance(groups, int)
    return [cin, cout // groups, *kernel] if transposed else [cout, cin // groups, *kernel]


def _evaluate(node: ast.AST, env: dict[str, object]) -> object:
    """An int, a float or a tuple of them, from literals, names bound in `env` and arithmetic."""
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.Tuple | ast.List):
        items = [_evaluate(e, env) for e in node.elts]
        return tuple(items) if all(isinstance(i, int | float) for i in items) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _SAFE_BINOPS:
        left, right = _evaluate(node.left, env), _evaluate(node.right, env)
        if isinstance(left, int | float) and isinstance(right, int | float):
            try:
                result = _SAFE_BINOPS[type(node.op)](left, right)
            except ArithmeticError:
                return None
            if not abs(result) <= _LARGEST:  # a shape is far smaller; names could square a value forever
                return None
            return int(result) if float(result).is_integer() and not isinstance(node.op, ast.Div) else result
        return None
    value = _number(node)
    return int(value) if value is not None and value.is_integer() else value
