"""Drives Labrador's v4 issue boards with Debian's python-gitlab 3.12 for
test/clients/python-gitlab-boards.test.ts.

Run as `/usr/bin/python3 python_gitlab_boards.py` with GITLAB_URL, GITLAB_TOKEN, PROJECT_ID and
LABEL_IDS (comma-separated) set; prints one JSON object, what the client saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
label_ids = [int(i) for i in os.environ["LABEL_IDS"].split(",")]

board = project.boards.create({"name": "Sprint"})
first = board.lists.create({"label_id": label_ids[0]})
second = board.lists.create({"label_id": label_ids[1]})
second.position = 0
second.save()
positions = [[l.label["name"], l.position] for l in board.lists.list(get_all=True)]
board.name = "Sprint 2"
board.save()
again = project.boards.get(board.id)
try:
    board.lists.create({"label_id": 999999})
    bad = None
except gitlab.exceptions.GitlabCreateError as error:
    bad = [error.response_code, str(error.error_message)]
board.lists.delete(first.id)
remaining = [l.label["name"] for l in board.lists.list(get_all=True)]
names = sorted(b.name for b in project.boards.list(get_all=True))
board.delete()
left = len(project.boards.list(get_all=True))

print(
    json.dumps(
        {
            "positions": positions,
            "renamed": again.name,
            "project": again.project["id"],
            "bad": bad,
            "remaining": remaining,
            "names": names,
            "left": left,
        }
    )
)
