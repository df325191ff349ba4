"""Drives Labrador's v4 pipeline schedules with Debian's python-gitlab 3.12 for
test/clients/python-gitlab-schedules.test.ts.

Run as `/usr/bin/python3 python_gitlab_schedules.py` with GITLAB_URL, GITLAB_TOKEN and PROJECT_ID set;
prints one JSON object, what the client saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)

schedule = project.pipelineschedules.create(
    {"description": "nightly", "ref": "master", "cron": "0 1 * * *", "cron_timezone": "UTC"}
)
schedule.variables.create({"key": "DEPLOY", "value": "yes"})
schedule.cron = "30 2 * * *"
schedule.save()
again = project.pipelineschedules.get(schedule.id)
schedule.take_ownership()
variable_keys = [v["key"] for v in again.attributes["variables"]]
again.variables.delete("DEPLOY")
listed = [s.description for s in project.pipelineschedules.list(get_all=True)]
try:
    project.pipelineschedules.create({"description": "bad", "ref": "master", "cron": "nope"})
    bad = None
except gitlab.exceptions.GitlabCreateError as error:
    bad = [error.response_code, str(error.error_message)]
schedule.delete()
remaining = len(project.pipelineschedules.list(get_all=True))

print(
    json.dumps(
        {
            "cron": again.cron,
            "next_hour": again.next_run_at[11:16],
            "variable_keys": variable_keys,
            "listed": listed,
            "bad": bad,
            "remaining": remaining,
        }
    )
)
