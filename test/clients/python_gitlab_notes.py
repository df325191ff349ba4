"""Drives Labrador's v4 notes, discussions, award emoji, todos, labels and milestones with Debian's
python-gitlab 3.12 for test/clients/python-gitlab-notes.test.ts.

Run as `/usr/bin/python3 python_gitlab_notes.py` with GITLAB_URL, GITLAB_TOKEN, PROJECT_ID, ISSUE_IID and
MR_IID set (the test makes the project, issue and merge request); prints one JSON object, what the client
saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
issue = project.issues.get(int(os.environ["ISSUE_IID"]), lazy=True)
mr = project.mergerequests.get(int(os.environ["MR_IID"]), lazy=True)

note = issue.notes.create({"body": "From python"})
note.body = "Edited from python"
note.save()
notes = [n.body for n in issue.notes.list(get_all=True, sort="asc")]
award = note.awardemojis.create({"name": "tada"})
awards = [a.name for a in note.awardemojis.list(get_all=True)]

thread = mr.discussions.create({"body": "Please rename"})
thread.notes.create({"body": "Renamed"})
thread.resolved = True
thread.save()
reread = mr.discussions.get(thread.id)
resolved = [n["resolved"] for n in reread.attributes["notes"]]

label = project.labels.create({"name": "py-label", "color": "#336699", "priority": 1})
label.subscribe()
label_again = project.labels.get("py-label")

milestone = project.milestones.create({"title": "py-1.0", "start_date": "2030-01-01"})
milestone.state_event = "close"
milestone.save()
closed = [m.title for m in project.milestones.list(get_all=True, state="closed")]
planned = project.milestones.create({"title": "py-2.0"})
issue_again = project.issues.get(int(os.environ["ISSUE_IID"]))
issue_again.milestone_id = planned.id
issue_again.save()
milestone_issues = [(i.iid, i.state, i.references["short"]) for i in planned.issues()]
participants = [u["username"] for u in issue.participants()]

todo = issue.todo()
todos = [(t.target_type, t.state) for t in gl.todos.list(get_all=True)]
gl.todos.mark_all_as_done()
todos_after = len(gl.todos.list(get_all=True))

print(
    json.dumps(
        {
            "notes": notes,
            "note_iid": note.noteable_iid,
            "awards": awards,
            "award_type": award.awardable_type,
            "thread_notes": len(reread.attributes["notes"]),
            "resolved": resolved,
            "label": {"subscribed": label_again.subscribed, "priority": label_again.priority},
            "closed_milestones": closed,
            "milestone_issues": milestone_issues,
            "participants": participants,
            "todos": todos,
            "todos_after": todos_after,
        }
    )
)
