"""Drives Labrador's v4 file templates with Debian's python-gitlab 3.12 for
test/clients/python-gitlab-templates.test.ts.

Run as `/usr/bin/python3 python_gitlab_templates.py` with GITLAB_URL and GITLAB_TOKEN set; prints one
JSON object, what the client saw, for the test to assert.
"""

import json
import os
import warnings

import gitlab

warnings.filterwarnings("error", category=UserWarning)

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"], per_page=None)

gitignore = gl.gitignores.get("Python")
ci = gl.gitlabciymls.get("Nodejs")
dockerfile = gl.dockerfiles.get("Go")
licenses = gl.licenses.list(get_all=True)
popular = gl.licenses.list(popular=True, get_all=True)
mit = gl.licenses.get("mit", project="Frob", fullname="Jane Roe")
try:
    gl.gitignores.get("Cobol")
    missing = None
except gitlab.exceptions.GitlabGetError as error:
    missing = [error.response_code, str(error.error_message)]

print(
    json.dumps(
        {
            "gitignore": [gitignore.name, "__pycache__/" in gitignore.content],
            "ci": [ci.name, "npm test" in ci.content],
            "dockerfile": [dockerfile.name, dockerfile.content.count("FROM ")],
            "gitignores": len(gl.gitignores.list(get_all=True)),
            "gitlabciymls": sorted(t.key for t in gl.gitlabciymls.list(get_all=True))[:3],
            "licenses": len(licenses),
            "popular": [l.key for l in popular],
            "mit": [mit.key, mit.popular, mit.content.splitlines()[2]],
            "missing": missing,
        }
    )
)
