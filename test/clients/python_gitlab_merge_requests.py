"""Drives Labrador's v4 squash merge and rebase of merge requests, group labels and milestones, issue
links, pipeline variables and a runner's jobs with Debian's python-gitlab 3.12 for
test/clients/python-gitlab-merge-requests.test.ts.

Run as `/usr/bin/python3 python_gitlab_merge_requests.py` with GITLAB_URL, GITLAB_TOKEN, PROJECT_ID,
GROUP_ID, SQUASH_IID, REBASE_IID, ISSUE_IID, OTHER_ISSUE_IID and RUNNER_ID set (the test makes them);
prints one JSON object, what the client saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
project_id = int(os.environ["PROJECT_ID"])
project = gl.projects.get(project_id, lazy=True)

squashing = project.mergerequests.get(int(os.environ["SQUASH_IID"]))
squashing.merge(squash=True)
squashed = project.mergerequests.get(squashing.iid)
squash_commit = project.commits.get(squashed.squash_commit_sha)

rebasing = project.mergerequests.get(int(os.environ["REBASE_IID"]))
queued = rebasing.rebase()
rebased = project.mergerequests.get(rebasing.iid, include_rebase_in_progress=True)

group = gl.groups.get(int(os.environ["GROUP_ID"]))
group.labels.create({"name": "py-group-label", "color": "#112233"})
group_labels = [label.name for label in group.labels.list(get_all=True)]
group.milestones.create({"title": "py-group-1.0"})
group_milestones = [milestone.title for milestone in group.milestones.list(get_all=True)]

issue = project.issues.get(int(os.environ["ISSUE_IID"]), lazy=True)
source, target = issue.links.create(
    {"target_project_id": project_id, "target_issue_iid": int(os.environ["OTHER_ISSUE_IID"])}
)
links = [linked.iid for linked in issue.links.list(get_all=True)]

pipeline = project.pipelines.create(
    {"ref": "master", "variables": [{"key": "PY_VAR", "value": "from python"}]}
)
variables = [(v.key, v.value, v.variable_type) for v in pipeline.variables.list(get_all=True)]

runner = gl.runners.get(int(os.environ["RUNNER_ID"]))
runner_jobs = [(job.name, job.status, job.project["id"]) for job in runner.jobs.list(get_all=True)]

print(
    json.dumps(
        {
            "squashed": [squashed.state, squashed.squash, squash_commit.title],
            "squash_parents": len(squash_commit.parent_ids),
            "rebase": queued,
            "rebased": [rebased.rebase_in_progress, rebased.merge_error],
            "group_labels": group_labels,
            "group_milestones": group_milestones,
            "linked": [source.iid, target.iid],
            "links": links,
            "variables": variables,
            "runner_jobs": runner_jobs,
        }
    )
)
