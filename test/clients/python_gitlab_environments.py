"""Drives Labrador's v4 environments and deployments with Debian's python-gitlab 3.12 for
test/clients/python-gitlab-environments.test.ts.

Run as `/usr/bin/python3 python_gitlab_environments.py` with GITLAB_URL, GITLAB_TOKEN, PROJECT_ID and SHA
set; prints one JSON object, what the client saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
sha = os.environ["SHA"]

environment = project.environments.create({"name": "staging", "external_url": "https://staging.example.com"})
environment.external_url = "https://staging2.example.com"
environment.save()
again = project.environments.get(environment.id)
try:
    project.environments.create({"name": "staging"})
    duplicate = None
except gitlab.exceptions.GitlabCreateError as error:
    duplicate = [error.response_code, str(error.error_message)]

deployment = project.deployments.create(
    {"environment": "staging", "sha": sha, "ref": "master", "tag": False, "status": "running"}
)
deployment.status = "success"
deployment.save()
second = project.deployments.create(
    {"environment": "staging", "sha": sha, "ref": "master", "tag": False, "status": "success"}
)
listed = project.deployments.list(order_by="iid", sort="desc", environment="staging", get_all=True)
shown = project.deployments.get(deployment.id)
with_last = project.environments.get(environment.id)

environment.stop()
stopped = [e.name for e in project.environments.list(states="stopped", get_all=True)]
searched = [e.name for e in project.environments.list(search="stag", get_all=True)]
environment.delete()
remaining = len(project.environments.list(get_all=True))

print(
    json.dumps(
        {
            "external_url": again.external_url,
            "slug": again.slug,
            "tier": again.tier,
            "duplicate": duplicate,
            "iids": [d.iid for d in listed],
            "status": shown.status,
            "deployment_env": shown.environment["name"],
            "last_iid": with_last.last_deployment["iid"],
            "stopped": stopped,
            "searched": searched,
            "remaining": remaining,
            "second_user": second.user["username"],
        }
    )
)
