"""The optional judge of task-level matches: "does this kernel implement this reference?" asked
of any OpenAI-compatible endpoint, each pair once.

Small and self-contained on purpose (dedup/ may not import annotate/): the `openai` client, one
short prompt, and a SQLite journal keyed by a hash of the model and both texts, so a re-run asks
nothing it has asked before and an interrupted run resumes where it stopped. Everything works
without it; a failed request leaves the match unjudged (verdict None), it never fails the audit.
An endpoint that fails `GIVE_UP_AFTER` times in a row (down, a wrong URL, a refused key) is not
asked again: one warning says why, and the rest stand unjudged, instead of every pair waiting for
its retries. Pairs are asked from several threads (`JudgeSettings.concurrency`); the journal is
shared under a lock.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import sys
import threading
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
GIVE_UP_AFTER = 3  # failed requests in a row (each after the client's own retries)
# The answer's first word, past any markdown (`**YES**`); anything else is no verdict. Gemma 3
# 270M, asked on real renamed solutions, answered with code (`<<SYS>> ```python import`) every
# time; read as "no", each such answer had taken a task match out of the leaks.
_ANSWER = re.compile(r"[\s*_`'\"]{0,8}(YES|NO)\b", re.IGNORECASE)
UNCLEAR = "unclear"


class TaskJudge:
    def __init__(self, url: str, model: str, cache: Path, timeout_s: float = 120.0) -> None:
        from openai import OpenAI

        self.url, self.model = url, model
        self.client = OpenAI(
            base_url=url, api_key=os.environ.get("OPENAI_API_KEY", "none"), timeout=timeout_s, max_retries=2
        )
        cache.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(cache, check_same_thread=False)  # used under self._lock only
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, verdict TEXT, answer TEXT)"
        )
        self._lock = threading.Lock()
        self.asked = self.cached = self.failed = self.skipped = self.unclear = 0
        self._failed_in_a_row = 0

    def _key(self, kernel: str, reference: str) -> str:
        text = "\0".join((PROMPT_VERSION, self.model, kernel[:_KERNEL_CHARS], reference[:_REFERENCE_CHARS]))
        return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()

    @property
    def gave_up(self) -> bool:
        return self._failed_in_a_row >= GIVE_UP_AFTER

    def verdict(self, kernel: str, reference: str) -> bool | None:
        """True / False from the journal or the endpoint; None when the endpoint failed, has
        failed too often in a row to be asked again, or answered neither yes nor no (a model too
        small to follow the instruction: its answer must not refuse a match). Safe to call from
        several threads."""
        key = self._key(kernel, reference)
        with self._lock:
            row = self.db.execute("SELECT answer FROM verdicts WHERE key = ?", (key,)).fetchone()
            if row is not None:  # read again from the answer: a journal of an older reading holds "no"
                verdict = _verdict_of(row[0])
                self.cached += 1
                self.unclear += verdict == UNCLEAR
                return None if verdict == UNCLEAR else verdict == "yes"
            if self.gave_up:
                self.skipped += 1
                return None
        try:
            answer = self._ask(kernel, reference)
        except Exception as exc:  # the openai client raises many types; each means "no verdict"
            self._fail(exc)
            return None
        verdict = _verdict_of(answer)
        with self._lock:
            self.asked += 1
            self.unclear += verdict == UNCLEAR
            self._failed_in_a_row = 0
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)", (key, verdict, answer[:200])
                )
        return None if verdict == UNCLEAR else verdict == "yes"

    def _fail(self, exc: Exception) -> None:
        with self._lock:
            self.failed += 1
            self._failed_in_a_row += 1
            if self._failed_in_a_row != GIVE_UP_AFTER:
                return
        print(
            f"warning: the judge at {self.url} failed {GIVE_UP_AFTER} times in a row "
            f"({_one_line(exc)}); no more pairs are sent to it and the task matches left stand "
            "unjudged. Check --judge-url, --judge-model and OPENAI_API_KEY, then re-run: verdicts "
            "already given are kept.",
            file=sys.stderr,
        )

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
        return {
            "judge_requests": self.asked,
            "judge_cached": self.cached,
            "judge_failed": self.failed,
            "judge_not_asked": self.skipped,
            "judge_unclear": self.unclear,
        }

    def close(self) -> None:
        self.db.close()


def _verdict_of(answer: str) -> str:
    """The verdict an answer gives: "yes", "no", or UNCLEAR when it starts with neither."""
    said = _ANSWER.match(answer)
    return said.group(1).lower() if said else UNCLEAR


def _one_line(exc: Exception) -> str:
    """What went wrong, in one line, without the key should an error body echo it."""
    text = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    key = os.environ.get("OPENAI_API_KEY", "")
    return text.replace(key, "***")[:200] if len(key) >= 8 else text[:200]
