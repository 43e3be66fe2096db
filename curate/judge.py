"""The optional judge of task-level matches: "does this kernel implement this reference?" asked
of any OpenAI-compatible endpoint, each pair once.

Small and self-contained on purpose (dedup/ may not import annotate/): the `openai` client, one
short prompt, and a SQLite journal keyed by a hash of the model and both texts, so a re-run asks
nothing it has asked before and an interrupted run resumes where it stopped. Everything works
without it; a failed request leaves the match unjudged (verdict None), it never fails the audit.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

PROMPT_VERSION = "task-judge-2"
# What is sent of each side. A kernel document is its entry file, headers and host code, or a
# submission's six fields. Of the 233 submissions of benchmarks/eval_tasklevel.py, 12,000
# characters cut the kernel of 85 (21 before it began); 32,000 (about 10k tokens) cuts none.
# Documents: median 13,000 characters, 90th percentile 23,900. A reference is rarely over 3,000.
_KERNEL_CHARS = 32_000
_REFERENCE_CHARS = 12_000
_SYSTEM = (
    "You compare an AscendC kernel with a PyTorch reference. Answer with one word: YES if the "
    "kernel computes everything the reference's forward computes (every step), NO otherwise."
)


class TaskJudge:
    def __init__(self, url: str, model: str, cache: Path, timeout_s: float = 120.0) -> None:
        from openai import OpenAI

        self.model = model
        self.client = OpenAI(
            base_url=url, api_key=os.environ.get("OPENAI_API_KEY", "none"), timeout=timeout_s, max_retries=2
        )
        cache.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(cache)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, verdict TEXT, answer TEXT)"
        )
        self.asked = self.cached = self.failed = 0

    def _key(self, kernel: str, reference: str) -> str:
        text = "\0".join((PROMPT_VERSION, self.model, kernel[:_KERNEL_CHARS], reference[:_REFERENCE_CHARS]))
        return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()

    def verdict(self, kernel: str, reference: str) -> bool | None:
        """True / False from the journal or the endpoint; None when the endpoint failed."""
        key = self._key(kernel, reference)
        row = self.db.execute("SELECT verdict FROM verdicts WHERE key = ?", (key,)).fetchone()
        if row is not None:
            self.cached += 1
            return bool(row[0] == "yes")
        try:
            answer = self._ask(kernel, reference)
        except Exception:  # the openai client raises many types; each means "no verdict"
            self.failed += 1
            return None
        self.asked += 1
        verdict = "yes" if answer.strip().upper().startswith("YES") else "no"
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)", (key, verdict, answer[:200]))
        return verdict == "yes"

    def _ask(self, kernel: str, reference: str) -> str:
        user = (
            f"PyTorch reference:\n```python\n{reference[:_REFERENCE_CHARS]}\n```\n\n"
            f"Kernel:\n```cpp\n{kernel[:_KERNEL_CHARS]}\n```\n\nDoes the kernel implement the reference?"
        )
        response = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}],
            temperature=0.0,
            max_tokens=8,
        )
        return response.choices[0].message.content or ""

    def counts(self) -> dict[str, int]:
        return {"judge_requests": self.asked, "judge_cached": self.cached, "judge_failed": self.failed}

    def close(self) -> None:
        self.db.close()
