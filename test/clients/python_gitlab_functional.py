"""Drives what python-gitlab 3.12's own functional tests reach and Labrador lately answers, with Debian's
python-gitlab, for test/clients/python-gitlab-functional.test.ts: one note of a thread, labels=Any and
None, blocking twice, POST /markdown, a file's blame, keys by id and fingerprint, project uploads,
housekeeping, storage, and cancelling merge-when-pipeline-succeeds.

Run as `/usr/bin/python3 python_gitlab_functional.py` with GITLAB_URL, GITLAB_TOKEN (an administrator's),
SSH_KEY and DEPLOY_KEY (OpenSSH public keys) set; prints one JSON object, what the client saw.
"""

import base64
import hashlib
import json
import os
import time
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
gl.auth()
seen = {}


def raised(call):
    try:
        call()
    except gitlab.exceptions.GitlabError as error:
        return [type(error).__name__, error.response_code, str(error.error_message)]
    return None


def sha256_fingerprint(key):
    digest = hashlib.sha256(base64.b64decode(key.split()[1])).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


project = gl.projects.create({"name": "pyfunc"})
project.files.create(
    {"file_path": "README.md", "branch": "main", "content": "one\ntwo\n", "commit_message": "Add README"}
)
project.files.update(
    "README.md",
    {"branch": "main", "content": "one\ntwo\nthree\n", "commit_message": "Third line"},
)

# A thread's note by id, edited and read back, on an issue.
issue = project.issues.create({"title": "Threaded"})
thread = issue.discussions.create({"body": "Opening"})
reply = thread.notes.create({"body": "first reply"})
note = thread.notes.get(reply.id)
note.body = "edited reply"
note.save()
seen["note"] = [note.id == reply.id, thread.notes.get(reply.id).body]
seen["missing_note"] = raised(lambda: thread.notes.get(999999))

# labels=Any and labels=None.
project.labels.create({"name": "bug", "color": "#aa0000"})
labelled = project.issues.create({"title": "Labelled", "labels": ["bug"]})
seen["labels"] = {
    "any": [i.title for i in project.issues.list(labels="Any", get_all=True)],
    "none": sorted(i.title for i in project.issues.list(labels="None", get_all=True)),
    "named": [i.title for i in project.issues.list(labels=["bug"], get_all=True)],
}

# Blocking twice: True, then None; unblocking twice: True, then False.
user = gl.users.create(
    {"email": "pyblock@example.com", "username": "pyblock", "name": "Py Block", "password": "pyblock-password"}
)
seen["block"] = [user.block(), user.block(), user.unblock(), user.unblock()]

# Markdown, plain and with the project's references.
seen["markdown"] = gl.markdown("**foo**")
seen["gfm"] = gl.markdown(f"see #{issue.iid}", gfm=True, project=project.path_with_namespace)
seen["markdown_hidden"] = raised(lambda: gl.markdown("x", project="nobody/nothing"))

# Blame: runs of lines, each with its commit.
blame = project.files.blame(file_path="README.md", ref="main")
seen["blame"] = [[run["commit"]["title"], run["lines"]] for run in blame]
seen["blame_missing"] = raised(lambda: project.files.blame(file_path="nothing.md", ref="main"))

# Keys by id and by fingerprint, personal and deploy.
key = user.keys.create({"title": "py@laptop", "key": os.environ["SSH_KEY"]})
by_id = gl.keys.get(key.id)
by_sha = gl.keys.get(fingerprint=sha256_fingerprint(os.environ["SSH_KEY"]))
deploy = project.keys.create({"title": "py-deploy", "key": os.environ["DEPLOY_KEY"]})
by_deploy = gl.keys.get(fingerprint=sha256_fingerprint(os.environ["DEPLOY_KEY"]))
by_md5 = gl.keys.get(fingerprint=deploy.fingerprint)
seen["keys"] = {
    "by_id": [by_id.title, by_id.key == key.key, by_id.user["username"]],
    "by_sha": [by_sha.id == key.id, by_sha.user["username"]],
    "deploy": [
        by_deploy.title,
        by_deploy.user,
        [link["project_id"] == project.id for link in by_deploy.deploy_keys_projects],
    ],
    "by_md5": by_md5.id == deploy.id,
    "unknown": raised(lambda: gl.keys.get(fingerprint="SHA256:nothing")),
    "missing": raised(lambda: gl.keys.get(999999)),
}

# Uploads, housekeeping and storage.
upload = project.upload("notes.txt", "some notes")
seen["upload"] = [upload["alt"], upload["url"].startswith("/uploads/"), upload["markdown"]]
project.housekeeping()
seen["storage"] = project.storage.get().repository_storage

# Merge when the pipeline succeeds, then cancelled.
project.branches.create({"branch": "feature", "ref": "main"})
project.files.create(
    {
        "file_path": ".gitlab-ci.yml",
        "branch": "feature",
        "content": "test:\n  script:\n    - echo never run\n",
        "commit_message": "Add CI",
    }
)
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
for _ in range(50):
    if project.pipelines.list(ref="feature", get_all=True):
        break
    time.sleep(0.1)
mr.merge(merge_when_pipeline_succeeds=True)
waiting = project.mergerequests.get(mr.iid)
cancelled = waiting.cancel_merge_when_pipeline_succeeds()
seen["mwps"] = [waiting.merge_when_pipeline_succeeds, cancelled]
seen["mwps_again"] = raised(waiting.cancel_merge_when_pipeline_succeeds)

print(json.dumps(seen))
