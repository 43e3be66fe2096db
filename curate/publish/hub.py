"""Upload to the Hugging Face Hub: one commit holding every file, so the dataset on the Hub is
either the previous version or the new one, never a mix.

Large files go through `huggingface_hub`'s upload path (Xet where available, unless
HF_HUB_DISABLE_XET=1; Git LFS otherwise) before the commit; if anything fails before the commit
is created, no commit exists and nothing was published. Stale shards of an earlier push are
deleted in the same commit, so a `train-*` glob never mixes versions.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from curate.errors import UserError
from curate.publish.repo import MANAGED_FILES, MANAGED_PREFIXES, RepoContent


@dataclass(slots=True)
class HubTarget:
    repo_id: str
    private: bool = False
    revision: str = "main"
    commit_message: str = ""


def hub_token() -> str | None:
    """HF_TOKEN, else the token of `hf auth login` (None when neither exists)."""
    from huggingface_hub import get_token

    return os.environ.get("HF_TOKEN") or get_token()


def _endpoint() -> str | None:
    return os.environ.get("HF_ENDPOINT") or None


def _reason(exc: BaseException, token: str | None) -> str:
    """One line that says why, with the token (should a library ever echo it) masked."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if token:
        text = text.replace(token, "***")
    if status == 401:
        text = "the Hub refused the token (401): set HF_TOKEN to a token with write access"
    elif status == 403:
        text = "the token may not write to this repository (403)"
    return f"{type(exc).__name__}: {text[:300]}"


def upload(content: RepoContent, target: HubTarget, rerun: str) -> str:
    """Commit `content` to the dataset repository `target.repo_id`; returns the commit URL."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    token = hub_token()
    if not token:
        raise UserError("no Hugging Face token: set HF_TOKEN (or run `hf auth login`), then re-run " + rerun)
    api = HfApi(endpoint=_endpoint(), token=token)
    stage = "creating the repository"
    try:
        api.create_repo(target.repo_id, repo_type="dataset", private=target.private, exist_ok=True)
        if target.revision != "main":
            stage = f"creating branch {target.revision}"
            api.create_branch(target.repo_id, repo_type="dataset", branch=target.revision, exist_ok=True)
        stage = "reading the repository"
        head = api.repo_info(target.repo_id, repo_type="dataset", revision=target.revision).sha
        existing = api.list_repo_files(target.repo_id, repo_type="dataset", revision=target.revision)
        stale = [
            p
            for p in existing
            if p not in content.files and (p.startswith(MANAGED_PREFIXES) or p in MANAGED_FILES)
        ]
        operations: list[CommitOperationAdd | CommitOperationDelete] = [
            CommitOperationAdd(path, data) for path, data in sorted(content.files.items())
        ]
        operations += [CommitOperationDelete(path) for path in sorted(stale)]
        stage = "uploading and committing"
        info = api.create_commit(
            target.repo_id,
            operations,
            commit_message=target.commit_message or "Publish Ascend-CoT with curate",
            repo_type="dataset",
            revision=target.revision,
            parent_commit=head,
        )
    except UserError:
        raise
    except Exception as exc:  # the network boundary: whatever failed, say so and how to retry
        raise UserError(
            f"push to {target.repo_id} failed while {stage} ({_reason(exc, token)}); no commit was made, so the "
            f"dataset on the Hub is unchanged; fix the cause and re-run: {rerun}"
        ) from None
    return str(info.commit_url)
