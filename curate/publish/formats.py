"""The published formats, each a config of the same dataset:

- `raw`: the DatasetRow columns (provenance, generation and verification columns included);
- `alpaca`: instruction / input / output, the output holding the reasoning and the answer in
  tagged sections (LLaMA-Factory-style trainers read it as is);
- `messages`: a system / user / assistant conversation (TRL's SFTTrainer and similar);
- `preference`: prompt / chosen / rejected from the verification rounds (DPO);
- `rejected`: raw rows whose reasoning the verifier rejected, with the verifier's diagnostics of
  each row (only with `--include-rejected`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa

from curate.publish.split import SPLITS
from schemas import DatasetRow, PreferencePair, arrow_schema, to_rows

THINK = ("<think>", "</think>")
ANSWER = ("<answer>", "</answer>")
SYSTEM_PROMPT = (
    "You are an expert AscendC kernel developer for Huawei Ascend NPUs. Reason step by step inside "
    "<think>...</think>: the operator, the work split across AI cores, the tiling under the Unified "
    "Buffer capacity, the CopyIn/Compute/CopyOut pipeline and the APIs. Then give the complete kernel "
    "source inside <answer>...</answer>."
)

RAW_SCHEMA = pa.schema([f for f in arrow_schema(DatasetRow) if f.name not in ("split", "diagnostics")])
REJECTED_SCHEMA = pa.schema([f for f in arrow_schema(DatasetRow) if f.name != "split"])
ALPACA_SCHEMA = pa.schema(
    [("id", pa.string()), ("instruction", pa.string()), ("input", pa.string()), ("output", pa.string())]
)
MESSAGE = pa.struct([("role", pa.string()), ("content", pa.string())])
MESSAGES_SCHEMA = pa.schema([("id", pa.string()), ("messages", pa.list_(MESSAGE))])
PREFERENCE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("unit_id", pa.string()),
        ("prompt", pa.string()),
        ("chosen", pa.string()),
        ("rejected", pa.string()),
    ]
)


def completion(reasoning: str, answer: str) -> str:
    """The target text: reasoning in <think>, then the kernel in <answer> as a fenced C++ block."""
    return f"{THINK[0]}\n{reasoning.strip()}\n{THINK[1]}\n{ANSWER[0]}\n```cpp\n{answer.strip()}\n```\n{ANSWER[1]}"


def _raw(row: DatasetRow) -> dict[str, Any]:
    plain = to_rows([row])[0]
    del plain["split"], plain["diagnostics"]
    return plain


def _rejected(row: DatasetRow) -> dict[str, Any]:
    plain = to_rows([row])[0]
    del plain["split"]
    return plain


def _alpaca(row: DatasetRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "instruction": row.instruction,
        "input": "",
        "output": completion(row.reasoning, row.answer),
    }


def _messages(row: DatasetRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": row.instruction},
            {"role": "assistant", "content": completion(row.reasoning, row.answer)},
        ],
    }


def _preference(pair: PreferencePair) -> dict[str, Any]:
    return {
        "id": pair.id,
        "unit_id": pair.unit_id,
        "prompt": pair.instruction,
        "chosen": completion(pair.chosen, pair.answer),
        "rejected": completion(pair.rejected, pair.answer),
    }


KNOWLEDGE_SYSTEM_PROMPT = (
    "You are an expert on AscendC and the Huawei Ascend NPU programming documentation. Reason step by "
    "step inside <think>...</think>, then answer."
)
KNOWLEDGE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("instruction", pa.string()),
        ("input", pa.string()),
        ("output", pa.string()),
        ("messages", pa.list_(MESSAGE)),
        ("apis", pa.list_(pa.string())),
        ("source", pa.string()),
        ("path", pa.string()),
        ("commit", pa.string()),
        ("license", pa.string()),
    ]
)


def _knowledge(item: Any) -> dict[str, Any]:
    """Alpaca columns and a messages column in one row: both trainer shapes read the same config."""
    output = f"{THINK[0]}\n{item.reasoning.strip()}\n{THINK[1]}\n{item.answer.strip()}"
    return {
        "id": item.item_id,
        "instruction": item.question,
        "input": "",
        "output": output,
        "messages": [
            {"role": "system", "content": KNOWLEDGE_SYSTEM_PROMPT},
            {"role": "user", "content": item.question},
            {"role": "assistant", "content": output},
        ],
        "apis": list(item.apis),
        "source": item.source,
        "path": item.path,
        "commit": item.commit,
        "license": item.license,
    }


def knowledge_tables(items: Sequence[Any]) -> dict[str, pa.Table]:
    """The `knowledge` config: accepted knowledge items only, split by documentation page."""
    accepted = [i for i in items if i.verdict == "accepted"]
    tables = {}
    for split in SPLITS:
        chosen = sorted((i for i in accepted if i.split == split), key=lambda i: i.item_id)
        if chosen:
            tables[split] = pa.Table.from_pylist([_knowledge(i) for i in chosen], schema=KNOWLEDGE_SCHEMA)
    return tables


def _by_split(
    items: Sequence[Any], convert: Callable[[Any], dict[str, Any]], schema: pa.Schema
) -> dict[str, pa.Table]:
    tables = {}
    for split in SPLITS:
        chosen = sorted((i for i in items if i.split == split), key=lambda i: i.id)
        if chosen:
            tables[split] = pa.Table.from_pylist([convert(i) for i in chosen], schema=schema)
    return tables


def config_tables(
    rows: Sequence[DatasetRow], pairs: Sequence[PreferencePair], formats: Sequence[str]
) -> dict[str, dict[str, pa.Table]]:
    """config name -> split -> table. Configs and splits without rows are left out (a Hub config
    must point at data files that exist)."""
    accepted = [r for r in rows if r.verdict == "accepted"]
    rejected = [r for r in rows if r.verdict == "rejected"]
    makers: dict[str, Callable[[], dict[str, pa.Table]]] = {
        "raw": lambda: _by_split(accepted, _raw, RAW_SCHEMA),
        "alpaca": lambda: _by_split(accepted, _alpaca, ALPACA_SCHEMA),
        "messages": lambda: _by_split(accepted, _messages, MESSAGES_SCHEMA),
        "preference": lambda: _by_split(pairs, _preference, PREFERENCE_SCHEMA),
    }
    configs = {name: makers[name]() for name in formats}
    if rejected:
        configs["rejected"] = _by_split(rejected, _rejected, REJECTED_SCHEMA)
    return {name: tables for name, tables in configs.items() if tables}
