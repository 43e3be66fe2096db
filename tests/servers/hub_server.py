"""A small Hugging Face Hub-compatible HTTP server on loopback, for offline publishing tests.

It implements the part of the Hub's HTTP interface that the real `huggingface_hub` client uses to
create a dataset repository, commit files (regular files inline, large files through the Git LFS
batch API with single-part and multipart uploads, then verify), and that `datasets.load_dataset`
and `HfFileSystem` use to read them back (repo info, tree listing, paths-info, resolve with
ranges). It does not implement the Xet storage protocol: clients must upload with
`HF_HUB_DISABLE_XET=1` (the server never advertises Xet either).

Faults can be injected (`server.faults.add("commit")` or `"lfs_upload"`) to prove that a failed
upload leaves nothing half-published. Every request's method, path and Authorization header are
recorded so tests can check which token was sent.

Run standalone: `python -m tests.servers.hub_server --port 8765 --token hf_dev`.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import posixpath
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import yaml

LFS_SUFFIXES = (".parquet", ".arrow", ".bin", ".safetensors", ".zip", ".gz", ".zst", ".npy")
REGULAR_MAX = 10 * 1024 * 1024  # larger files must go through LFS, as on the Hub
GITATTRIBUTES = (
    b"*.parquet filter=lfs diff=lfs merge=lfs -text\n*.arrow filter=lfs diff=lfs merge=lfs -text\n"
)


def git_blob_oid(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\x00" % len(content) + content).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", ".000Z")


@dataclass
class StoredFile:
    size: int
    content: bytes | None = None  # regular file
    lfs_oid: str | None = None  # sha256 of an LFS object

    @property
    def oid(self) -> str:
        if self.lfs_oid is not None:
            pointer = (
                f"version https://git-lfs.github.com/spec/v1\noid sha256:{self.lfs_oid}\nsize {self.size}\n"
            )
            return git_blob_oid(pointer.encode())
        assert self.content is not None
        return git_blob_oid(self.content)

    @property
    def etag(self) -> str:
        return self.lfs_oid or self.oid


@dataclass
class Commit:
    oid: str
    parent: str | None
    title: str
    message: str
    date: str
    files: dict[str, StoredFile]


@dataclass
class Repo:
    repo_type: str
    repo_id: str
    private: bool
    commits: dict[str, Commit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)

    def resolve(self, revision: str) -> Commit | None:
        revision = revision.removeprefix("refs/heads/")
        oid = self.branches.get(revision, revision)
        return self.commits.get(oid)


class HubState:
    """Everything the server stores; guarded by one lock (requests are served on threads)."""

    def __init__(self, token: str | None, multipart_chunk: int) -> None:
        self.token = token
        self.multipart_chunk = multipart_chunk
        self.repos: dict[tuple[str, str], Repo] = {}
        self.lfs: dict[str, bytes] = {}
        self.parts: dict[str, dict[int, bytes]] = {}
        self.faults: set[str] = set()
        self.requests: list[tuple[str, str, str]] = []
        self.lock = threading.RLock()
        self._counter = 0

    def new_commit(self, repo: Repo, parent: Commit | None, title: str, message: str, files: dict) -> Commit:
        self._counter += 1
        seed = (
            f"{repo.repo_id}\x00{parent.oid if parent else ''}\x00{title}\x00{self._counter}\x00{time.time()}"
        )
        commit = Commit(
            hashlib.sha1(seed.encode()).hexdigest(),
            parent.oid if parent else None,
            title,
            message,
            _now(),
            files,
        )
        repo.commits[commit.oid] = commit
        return commit


class HubError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.extra = extra  # more fields of the JSON error body


class HubHandler(BaseHTTPRequestHandler):
    server_version = "curate-test-hub/1"
    protocol_version = "HTTP/1.1"

    @property
    def state(self) -> HubState:
        return self.server.state  # type: ignore[attr-defined,no-any-return]

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def log_message(self, format: str, *args: Any) -> None:  # the tests do not want access logs
        del format, args

    # -- plumbing ------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def _body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            return self.rfile.read(length)
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return b""

    def _json_body(self, body: bytes) -> Any:
        if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return {k: v for k, v in parse_qs(body.decode()).items()}
        return json.loads(body or b"{}")

    def _send(
        self,
        status: int,
        payload: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> None:
        data = raw if raw is not None else json.dumps(payload).encode()
        self.send_response(status)
        if raw is None:
            self.send_header("Content-Type", "application/json")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        auth = self.headers.get("Authorization", "")
        with self.state.lock:
            self.state.requests.append((method, url.path, auth))
        body = self._body() if method in ("POST", "PUT") else b""
        try:
            self._route(method, url.path, parse_qs(url.query), body)
        except HubError as exc:
            headers = {"X-Error-Message": str(exc)}
            if exc.code:
                headers["X-Error-Code"] = exc.code
            self._send(exc.status, {"error": str(exc), **exc.extra}, headers)
        except Exception as exc:  # a bug in the test server must show up as a 500, not a hang
            self._send(500, {"error": f"{type(exc).__name__}: {exc}"})

    def _authorised(self) -> bool:
        token = self.state.token
        return token is None or self.headers.get("Authorization", "") == f"Bearer {token}"

    def _require_write(self) -> None:
        if not self._authorised():
            raise HubError(401, "Invalid credentials in Authorization header")

    # -- routing -------------------------------------------------------------------------------

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: bytes) -> None:
        segments = [unquote(s) for s in path.strip("/").split("/")]
        if path == "/api/repos/create" and method == "POST":
            return self._create_repo(json.loads(body))
        if path == "/api/validate-yaml" and method == "POST":
            return self._validate_yaml(json.loads(body))
        if segments[:2] == ["lfs", "objects"]:
            return self._lfs_object(method, segments[2:], body)
        if path == "/lfs/verify" and method == "POST":
            return self._lfs_verify(json.loads(body))
        if segments[0] == "api" and len(segments) >= 4 and segments[1] in ("datasets", "models", "spaces"):
            repo = self._repo(segments[1][:-1], "/".join(segments[2:4]), read=True)
            return self._api(method, repo, segments[4:], query, body)
        if len(segments) >= 4 and segments[0] in ("datasets", "spaces"):
            segments = [segments[0][:-1], *segments[1:]]
        else:
            segments = ["model", *segments]
        if (
            len(segments) >= 3
            and segments[2].endswith(".git")
            and segments[3:] == ["info", "lfs", "objects", "batch"]
        ):
            repo_id = f"{segments[1]}/{segments[2][: -len('.git')]}"
            return self._lfs_batch(self._repo(segments[0], repo_id, read=False), json.loads(body))
        if len(segments) >= 6 and segments[3] == "resolve":
            repo = self._repo(segments[0], f"{segments[1]}/{segments[2]}", read=True)
            return self._resolve(method, repo, segments[4], "/".join(segments[5:]))
        raise HubError(404, f"no route for {method} {path}")

    def _repo(self, repo_type: str, repo_id: str, read: bool) -> Repo:
        with self.state.lock:
            repo = self.state.repos.get((repo_type, repo_id))
        if repo is None or (repo.private and not self._authorised()):
            raise HubError(404, f"Repository {repo_id} not found", "RepoNotFound")
        if not read:
            self._require_write()
        return repo

    def _api(
        self, method: str, repo: Repo, rest: list[str], query: dict[str, list[str]], body: bytes
    ) -> None:
        action = rest[0] if rest else "info"
        if action == "info" and method == "GET":
            return self._send(200, self._info(repo, "main"))
        if action == "revision" and method == "GET":
            return self._send(200, self._info(repo, "/".join(rest[1:])))
        if action == "tree" and method == "GET":
            recursive = query.get("recursive", ["false"])[0].lower() == "true"
            expand = query.get("expand", ["false"])[0].lower() == "true"
            return self._tree(repo, rest[1], "/".join(rest[2:]), recursive, expand)
        if action == "paths-info" and method == "POST":
            return self._paths_info(repo, rest[1], self._json_body(body))
        if action == "commits" and method == "GET":
            return self._commits(repo, "/".join(rest[1:]) or "main")
        if action == "refs" and method == "GET":
            return self._refs(repo)
        if action == "branch" and method == "POST":
            self._require_write()
            return self._create_branch(repo, "/".join(rest[1:]), json.loads(body or b"{}"))
        if action == "preupload" and method == "POST":
            self._require_write()
            return self._preupload(repo, "/".join(rest[1:]), json.loads(body))
        if action == "commit" and method == "POST":
            self._require_write()
            return self._commit(repo, "/".join(rest[1:]), body)
        raise HubError(404, f"no API route {method} {action}")

    # -- repositories --------------------------------------------------------------------------

    def _create_repo(self, payload: dict[str, Any]) -> None:
        self._require_write()
        repo_type = payload.get("type") or "model"
        name, organization = payload["name"], payload.get("organization")
        if not organization:
            raise HubError(400, "this test Hub needs an organization/name repo id")
        repo_id = f"{organization}/{name}"
        private = bool(payload.get("private")) or payload.get("visibility") == "private"
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        with self.state.lock:
            if (repo_type, repo_id) in self.state.repos:
                # the Hub answers a conflict with the existing repository's URL (create_repo(exist_ok=True) reads it)
                raise HubError(409, "You already created this repo", url=f"{self.base}/{prefix}{repo_id}")
            repo = Repo(repo_type, repo_id, private)
            first = self.state.new_commit(
                repo,
                None,
                "initial commit",
                "",
                {".gitattributes": StoredFile(len(GITATTRIBUTES), GITATTRIBUTES)},
            )
            repo.branches["main"] = first.oid
            self.state.repos[(repo_type, repo_id)] = repo
        self._send(200, {"url": f"{self.base}/{prefix}{repo_id}", "name": repo_id, "id": repo_id})

    def _validate_yaml(self, payload: dict[str, Any]) -> None:
        content: str = payload.get("content", "")
        match = re.match(r"^---\s*\n(.*?)\n---\s*\n", content, re.DOTALL)
        if match is None:
            return self._send(
                200, {"errors": [], "warnings": [{"message": "empty or missing yaml metadata"}]}
            )
        try:
            data = yaml.safe_load(match.group(1))
        except yaml.YAMLError as exc:
            return self._send(400, {"errors": [{"message": f"invalid YAML: {exc}"}]})
        if not isinstance(data, dict):
            return self._send(400, {"errors": [{"message": "metadata must be a mapping"}]})
        return self._send(200, {"errors": [], "warnings": []})

    def _commit_or_404(self, repo: Repo, revision: str) -> Commit:
        with self.state.lock:
            commit = repo.resolve(revision)
        if commit is None:
            raise HubError(404, f"Invalid rev id: {revision}", "RevisionNotFound")
        return commit

    def _info(self, repo: Repo, revision: str) -> dict[str, Any]:
        commit = self._commit_or_404(repo, revision)
        return {
            "_id": hashlib.sha1(repo.repo_id.encode()).hexdigest()[:24],
            "id": repo.repo_id,
            "author": repo.repo_id.split("/")[0],
            "sha": commit.oid,
            "private": repo.private,
            "gated": False,
            "disabled": False,
            "lastModified": commit.date,
            "createdAt": commit.date,
            "tags": [],
            "downloads": 0,
            "likes": 0,
            "siblings": [{"rfilename": path} for path in sorted(commit.files)],
        }

    def _refs(self, repo: Repo) -> None:
        with self.state.lock:
            branches = [
                {"name": n, "ref": f"refs/heads/{n}", "targetCommit": o} for n, o in repo.branches.items()
            ]
        self._send(200, {"branches": branches, "tags": [], "converts": []})

    def _create_branch(self, repo: Repo, branch: str, payload: dict[str, Any]) -> None:
        with self.state.lock:
            if branch in repo.branches:
                raise HubError(409, f"Branch {branch} already exists")
            start = self._commit_or_404(repo, payload.get("startingPoint") or "main")
            repo.branches[branch] = start.oid
        self._send(200, {})

    def _commits(self, repo: Repo, revision: str) -> None:
        commit: Commit | None = self._commit_or_404(repo, revision)
        history = []
        while commit is not None:
            history.append(
                {
                    "id": commit.oid,
                    "title": commit.title,
                    "message": commit.message,
                    "date": commit.date,
                    "authors": [],
                }
            )
            commit = repo.commits.get(commit.parent) if commit.parent else None
        self._send(200, history)

    # -- listing -------------------------------------------------------------------------------

    def _entry(self, commit: Commit, path: str, expand: bool) -> dict[str, Any] | None:
        stored = commit.files.get(path)
        last = {"id": commit.oid, "title": commit.title, "date": commit.date}
        if stored is not None:
            entry: dict[str, Any] = {"type": "file", "oid": stored.oid, "size": stored.size, "path": path}
            if stored.lfs_oid is not None:
                entry["lfs"] = {"oid": stored.lfs_oid, "size": stored.size, "pointerSize": 134}
            if expand:
                entry["lastCommit"] = last
            return entry
        if path == "" or any(p.startswith(path + "/") for p in commit.files):
            entry = {
                "type": "directory",
                "oid": hashlib.sha1(f"{commit.oid}:{path}".encode()).hexdigest(),
                "path": path,
            }
            if expand:
                entry["lastCommit"] = last
            return entry
        return None

    def _tree(self, repo: Repo, revision: str, folder: str, recursive: bool, expand: bool) -> None:
        commit = self._commit_or_404(repo, revision)
        folder = folder.strip("/")
        prefix = f"{folder}/" if folder else ""
        if folder and self._entry(commit, folder, False) is None:
            raise HubError(404, f"{folder} does not exist", "EntryNotFound")
        paths: set[str] = set()
        for path in commit.files:
            if not path.startswith(prefix):
                continue
            parts = path[len(prefix) :].split("/")
            depth = len(parts) if recursive else 1
            for i in range(1, depth + 1):
                paths.add(prefix + "/".join(parts[:i]))
        entries = [self._entry(commit, p, expand) for p in sorted(paths)]
        self._send(200, [e for e in entries if e is not None])

    def _paths_info(self, repo: Repo, revision: str, payload: dict[str, Any]) -> None:
        commit = self._commit_or_404(repo, revision)
        expand = str(
            payload.get("expand", ["false"])[0]
            if isinstance(payload.get("expand"), list)
            else payload.get("expand")
        )
        entries = [
            self._entry(commit, p.strip("/"), expand.lower() == "true") for p in payload.get("paths", [])
        ]
        self._send(200, [e for e in entries if e is not None])

    # -- downloads -----------------------------------------------------------------------------

    def _resolve(self, method: str, repo: Repo, revision: str, path: str) -> None:
        commit = self._commit_or_404(repo, revision)
        stored = commit.files.get(path)
        if stored is None:
            raise HubError(404, f"Entry not found: {path}", "EntryNotFound")
        with self.state.lock:
            data = stored.content if stored.content is not None else self.state.lfs[stored.lfs_oid or ""]
        headers = {
            "X-Repo-Commit": commit.oid,
            "ETag": f'"{stored.etag}"',
            "Accept-Ranges": "bytes",
            "Content-Type": "application/octet-stream",
        }
        if stored.lfs_oid is not None:
            headers["X-Linked-Etag"] = f'"{stored.lfs_oid}"'
            headers["X-Linked-Size"] = str(stored.size)
        status = 200
        ranged = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "") or "")
        if ranged and method == "GET":
            start = int(ranged.group(1)) if ranged.group(1) else max(0, len(data) - int(ranged.group(2)))
            end = int(ranged.group(2)) if ranged.group(1) and ranged.group(2) else len(data) - 1
            end = min(end, len(data) - 1)
            if start >= len(data):
                raise HubError(416, "range not satisfiable")
            headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
            data, status = data[start : end + 1], 206
        self._send(status, raw=data, headers=headers)

    # -- uploads -------------------------------------------------------------------------------

    def _preupload(self, repo: Repo, revision: str, payload: dict[str, Any]) -> None:
        commit = self._commit_or_404(repo, revision)
        files = []
        for item in payload.get("files", []):
            sample = base64.b64decode(item.get("sample", ""))
            lfs = item["path"].endswith(LFS_SUFFIXES) or item["size"] > REGULAR_MAX or b"\x00" in sample
            existing = commit.files.get(item["path"])
            oid = None
            if existing is not None:
                oid = existing.lfs_oid if existing.lfs_oid is not None else existing.oid
            files.append(
                {
                    "path": item["path"],
                    "uploadMode": "lfs" if lfs else "regular",
                    "shouldIgnore": False,
                    "oid": oid,
                }
            )
        self._send(200, {"files": files, "commitOid": commit.oid})

    def _lfs_batch(self, repo: Repo, payload: dict[str, Any]) -> None:
        del repo
        if payload.get("operation") != "upload":
            raise HubError(400, "only uploads are supported by the batch endpoint of this server")
        objects, multipart = [], False
        for obj in payload.get("objects", []):
            oid, size = obj["oid"], int(obj["size"])
            with self.state.lock:
                present = oid in self.state.lfs
            if present:
                objects.append({"oid": oid, "size": size})
                continue
            href = f"{self.base}/lfs/objects/{oid}"
            upload: dict[str, Any] = {"href": href}
            if size > self.state.multipart_chunk and "multipart" in payload.get("transfers", []):
                multipart = True
                parts = -(-size // self.state.multipart_chunk)
                header = {str(i + 1): f"{href}/part/{i + 1}" for i in range(parts)}
                upload["header"] = {"chunk_size": str(self.state.multipart_chunk), **header}
            actions = {"upload": upload, "verify": {"href": f"{self.base}/lfs/verify"}}
            objects.append({"oid": oid, "size": size, "authenticated": True, "actions": actions})
        self._send(200, {"transfer": "multipart" if multipart else "basic", "objects": objects})

    def _lfs_object(self, method: str, rest: list[str], body: bytes) -> None:
        oid = rest[0]
        if "lfs_upload" in self.state.faults:
            raise HubError(403, "injected fault: storage refused the upload")
        if method == "PUT" and len(rest) == 1:
            return self._store_lfs(oid, body)
        if method == "PUT" and len(rest) == 3 and rest[1] == "part":
            with self.state.lock:
                self.state.parts.setdefault(oid, {})[int(rest[2])] = body
            return self._send(200, raw=b"", headers={"ETag": f'"{hashlib.md5(body).hexdigest()}"'})
        if method == "POST" and len(rest) == 1:
            completion = json.loads(body)
            with self.state.lock:
                parts = self.state.parts.pop(oid, {})
            numbers = [p["partNumber"] for p in completion.get("parts", [])]
            if sorted(numbers) != sorted(parts):
                raise HubError(400, "multipart completion does not list the uploaded parts")
            return self._store_lfs(oid, b"".join(parts[n] for n in sorted(parts)))
        raise HubError(404, "unknown LFS object route")

    def _store_lfs(self, oid: str, data: bytes) -> None:
        if hashlib.sha256(data).hexdigest() != oid:
            raise HubError(400, "uploaded content does not match its sha256")
        with self.state.lock:
            self.state.lfs[oid] = data
        self._send(200, raw=b"")

    def _lfs_verify(self, payload: dict[str, Any]) -> None:
        self._require_write()
        with self.state.lock:
            data = self.state.lfs.get(payload["oid"])
        if data is None or len(data) != int(payload["size"]):
            raise HubError(404, "object not found or wrong size")
        self._send(200, {})

    def _commit(self, repo: Repo, revision: str, body: bytes) -> None:
        if "commit" in self.state.faults:
            raise HubError(500, "injected fault: commit failed")
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        header = next((item["value"] for item in lines if item["key"] == "header"), None)
        if header is None or not header.get("summary"):
            raise HubError(400, "commit without a header summary")
        with self.state.lock:
            head = self._commit_or_404(repo, revision)
            if revision not in repo.branches:
                raise HubError(400, f"can only commit on a branch, not on {revision}")
            if header.get("parentCommit") and header["parentCommit"] != head.oid:
                raise HubError(412, "A commit has happened since. Please refresh and try again.")
            files = dict(head.files)
            for item in lines:
                self._apply(files, item["key"], item["value"])
            commit = self.state.new_commit(
                repo, head, header["summary"], header.get("description", ""), files
            )
            repo.branches[revision] = commit.oid
        prefix = "" if repo.repo_type == "model" else f"{repo.repo_type}s/"
        url = f"{self.base}/{prefix}{repo.repo_id}/commit/{commit.oid}"
        self._send(200, {"commitUrl": url, "commitOid": commit.oid, "pullRequestUrl": None, "success": True})

    def _apply(self, files: dict[str, StoredFile], key: str, value: dict[str, Any]) -> None:
        if key == "header":
            return
        path = posixpath.normpath(value["path"]).lstrip("/")
        if key == "file":
            content = base64.b64decode(value["content"])
            files[path] = StoredFile(len(content), content=content)
        elif key == "lfsFile":
            if value["oid"] not in self.state.lfs:
                raise HubError(422, f"LFS object {value['oid']} of {path} was never uploaded")
            files[path] = StoredFile(int(value["size"]), lfs_oid=value["oid"])
        elif key == "deletedFile":
            if files.pop(path, None) is None:
                raise HubError(404, "A file with this name doesn't exist", "EntryNotFound")
        elif key == "deletedFolder":
            for existing in [p for p in files if p.startswith(path.rstrip("/") + "/")]:
                del files[existing]
        else:
            raise HubError(400, f"unsupported commit operation {key}")


class HubServer:
    """Start with `with HubServer(token=...) as hub:`; `hub.url` is the HF_ENDPOINT to use."""

    def __init__(self, token: str | None = "hf_test_token", multipart_chunk: int = 5 * 1024 * 1024) -> None:
        self.state = HubState(token, multipart_chunk)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), HubHandler)
        self._httpd.daemon_threads = True
        self._httpd.state = self.state  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def faults(self) -> set[str]:
        return self.state.faults

    def start(self) -> HubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> HubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def repo(self, repo_id: str, repo_type: str = "dataset") -> Repo | None:
        return self.state.repos.get((repo_type, repo_id))

    def files(self, repo_id: str, revision: str = "main", repo_type: str = "dataset") -> dict[str, bytes]:
        """The content of every file at `revision` (for assertions)."""
        repo = self.repo(repo_id, repo_type)
        commit = repo.resolve(revision) if repo else None
        if commit is None:
            return {}
        return {
            path: stored.content if stored.content is not None else self.state.lfs[stored.lfs_oid or ""]
            for path, stored in commit.files.items()
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=None, help="require this bearer token for writes")
    args = parser.parse_args()
    state = HubState(args.token, 5 * 1024 * 1024)
    httpd = ThreadingHTTPServer(("127.0.0.1", args.port), HubHandler)
    httpd.state = state  # type: ignore[attr-defined]
    print(f"test Hub on http://127.0.0.1:{httpd.server_address[1]} (set HF_HUB_DISABLE_XET=1)", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
