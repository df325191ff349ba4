"""Drives Labrador with Debian's python-gitlab 3.12 for test/clients/python-gitlab.test.ts.

Run as `/usr/bin/python3 python_gitlab_client.py <scenario>` with GITLAB_URL and GITLAB_TOKEN set; prints
one JSON object, what the scenario saw, for the test to assert. A client exception is caught and printed
as {"raised": class name, "status": response code} so the test asserts refusals as the client reports them.
"""

import json
import os
import sys
import warnings

import gitlab

# python-gitlab warns (UserWarning) when a Link URL names another base URL: let it fail the scenario.
warnings.filterwarnings("error", category=UserWarning)

URL = os.environ["GITLAB_URL"]
TOKEN = os.environ["GITLAB_TOKEN"]


def client(token=TOKEN):
    return gitlab.Gitlab(URL, private_token=token, per_page=None)


def raised(call):
    try:
        call()
    except gitlab.exceptions.GitlabError as error:
        return {"raised": type(error).__name__, "status": error.response_code, "message": error.error_message}
    return {"raised": None}


def scenario_version():
    gl = client()
    return {"client": gitlab.__version__, "version": list(gl.version())}


def scenario_refusals():
    return {
        "bad_token": raised(lambda: client("not-a-token").http_get("/version")),
        "missing_project": raised(lambda: client().projects.get(999999)),
        "unknown_path": raised(lambda: client().http_get("/no/such/thing")),
    }


SCENARIOS = {name[len("scenario_"):]: value for name, value in globals().items() if name.startswith("scenario_")}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[1]]()))
