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


def scenario_auth():
    gl = client()
    gl.auth()
    return {"username": gl.user.username, "id": gl.user.id, "is_admin": gl.user.is_admin}


def scenario_users():
    gl = client()
    made = gl.users.create(
        {
            "email": "pyuser@example.com",
            "username": "pyuser",
            "name": "Py User",
            "password": "a-long-password-1",
            "skip_confirmation": True,
        }
    )
    got = gl.users.get(made.id)
    listed = [user.username for user in gl.users.list(get_all=True)]
    searched = [user.username for user in gl.users.list(username="pyuser")]
    return {
        "made": {"id": made.id, "username": made.username, "name": made.name},
        "got": {"id": got.id, "username": got.username, "state": got.state},
        "listed": listed,
        "searched": searched,
        "missing": raised(lambda: gl.users.get(999999)),
    }


def scenario_groups():
    gl = client()
    group = gl.groups.create({"name": "Py Group", "path": "py-group"})
    listed = [g.full_path for g in gl.groups.list(get_all=True)]
    got = gl.groups.get("py-group")
    member = gl.users.create(
        {"email": "pygm@example.com", "username": "pygm", "name": "Member", "password": "a-long-password-1"}
    )
    added = group.members.create({"user_id": member.id, "access_level": 30})
    again = raised(lambda: group.members.create({"user_id": member.id, "access_level": 30}))
    members = sorted(m.username for m in group.members.list(get_all=True))
    group.delete()
    return {
        "made": {"id": group.id, "path": group.path, "full_path": group.full_path, "visibility": group.visibility},
        "got_id": got.id,
        "listed": listed,
        "member": {"username": added.username, "access_level": added.access_level},
        "member_again": again,
        "members": members,
        "after_delete": raised(lambda: gl.groups.get(group.id)),
    }


def scenario_projects():
    gl = client()
    project = gl.projects.create({"name": "py-project", "visibility": "internal", "description": "one"})
    by_path = gl.projects.get(project.path_with_namespace)
    by_path.description = "two"
    by_path.save()
    after_edit = gl.projects.get(project.id)
    owned = [p.path_with_namespace for p in gl.projects.list(owned=True, get_all=True)]
    project.delete()
    return {
        "made": {
            "path_with_namespace": project.path_with_namespace,
            "visibility": project.visibility,
            "default_branch": project.default_branch,
        },
        "by_path_id": by_path.id,
        "description": after_edit.description,
        "owned": owned,
        "after_delete": raised(lambda: gl.projects.get(project.id)),
    }


def scenario_pagination():
    gl = client()
    for n in range(5):
        gl.projects.create({"name": f"page-{n}"})
    pages = gl.projects.list(per_page=2, iterator=True, order_by="id", sort="asc")
    walked = [p.path for p in pages]
    everything = [p.path for p in gl.projects.list(per_page=2, get_all=True, order_by="id", sort="asc")]
    first = gl.projects.list(per_page=2, page=1, order_by="id", sort="asc")
    return {
        "walked": walked,
        "total": pages.total,
        "total_pages": pages.total_pages,
        "everything": everything,
        "first": [p.path for p in first],
    }


def scenario_repository():
    gl = client()
    project = gl.projects.create({"name": "py-code"})
    project.files.create(
        {"file_path": "README.md", "branch": "main", "content": "hello\n", "commit_message": "First file"}
    )
    project = gl.projects.get(project.id)
    commit = project.commits.create(
        {
            "branch": "main",
            "commit_message": "Two actions",
            "actions": [
                {"action": "create", "file_path": "docs/a.txt", "content": "a\n"},
                {"action": "update", "file_path": "README.md", "content": "hello again\n"},
            ],
        }
    )
    readme = project.files.get(file_path="README.md", ref="main")
    branch = project.branches.create({"branch": "feature", "ref": "main"})
    tag = project.tags.create({"tag_name": "v1.0", "ref": "main"})
    protected = project.protectedbranches.create({"name": "feature", "push_access_level": 40})
    again = raised(lambda: project.protectedbranches.create({"name": "main"}))
    return {
        "default_branch": project.default_branch,
        "commit": {"title": commit.title, "message": commit.message},
        "readme": readme.decode().decode(),
        "branch": {"name": branch.name, "commit_id": branch.commit["id"]},
        "branches": sorted(b.name for b in project.branches.list(get_all=True)),
        "tag": {"name": tag.name, "target": tag.commit["id"]},
        "protected": {"name": protected.name, "push": [a["access_level"] for a in protected.push_access_levels]},
        "protected_again": again,
        "protected_list": sorted(b.name for b in project.protectedbranches.list(get_all=True)),
        "head": commit.id,
    }


def scenario_members_hooks():
    gl = client()
    member = gl.users.create(
        {"email": "pymember@example.com", "username": "pymember", "name": "Member", "password": "a-long-password-1"}
    )
    project = gl.projects.create({"name": "py-team"})
    added = project.members.create({"user_id": member.id, "access_level": 30})
    again = raised(lambda: project.members.create({"user_id": member.id, "access_level": 30}))
    hook = project.hooks.create({"url": "http://example.com/hook", "push_events": True, "tag_push_events": "true"})
    return {
        "member": {"username": added.username, "access_level": added.access_level},
        "again": again,
        "members": sorted(m.username for m in project.members.list(get_all=True)),
        "hook": {"url": hook.url, "push_events": hook.push_events, "tag_push_events": hook.tag_push_events},
    }


def scenario_tokens():
    gl = client()
    root = gl.users.get(1, lazy=True)  # the administrator the app starts with
    made = root.personal_access_tokens.create({"name": "py", "scopes": ["read_api"]})
    reader = client(made.token)
    listed = [t.name for t in gl.personal_access_tokens.list(get_all=True)]
    seen = reader.http_get("/personal_access_tokens/self")
    write_refused = raised(lambda: reader.users.get(1, lazy=True).personal_access_tokens.create({"name": "x", "scopes": ["api"]}))
    gl.personal_access_tokens.delete(made.id)
    return {
        "name": made.name,
        "scopes": made.scopes,
        "token_prefix": made.token[:6],
        "listed": listed,
        "self": {"name": seen["name"], "active": seen["active"], "revoked": seen["revoked"]},
        "write_refused": write_refused,
        "after_revoke": raised(lambda: reader.http_get("/version")),
    }


def scenario_query_kwargs():
    gl = client()
    # Keyword arguments of create() travel in the query string, beside the JSON body.
    project = gl.projects.create({"name": "py-kw"}, visibility="public", description="from the query")
    raw = gl.http_post("/projects", query_data={"name": "py-raw", "topics": "py,kw"})
    user = gl.users.create(
        {"email": "pykw@example.com", "username": "pykw", "name": "Py Kw"},
        password="a-long-password-1",
        projects_limit=3,
    )
    got = gl.users.get(user.id)
    return {
        "project": {"visibility": project.visibility, "description": project.description},
        "raw": {"path": raw["path"], "topics": raw["topics"]},
        "user": {"username": got.username, "projects_limit": got.projects_limit},
    }


def scenario_instance():
    gl = client()
    settings = gl.settings.get()
    before = settings.default_branch_name
    settings.default_branch_name = "trunk"
    settings.save()
    after = gl.settings.get().default_branch_name
    settings.default_branch_name = before
    settings.save()
    stats = gl.statistics.get()
    topic = gl.topics.create({"name": "py-topic", "title": "Py Topic"})
    project = gl.projects.create({"name": "py-deployed", "topics": ["py-topic"]})
    project.files.create({"file_path": "a.txt", "branch": "main", "content": "a\n", "commit_message": "first"})
    made = project.deploytokens.create({"name": "py-token", "scopes": ["read_repository"]})
    listed = [t.name for t in project.deploytokens.list(get_all=True)]
    every = [t.name for t in gl.deploytokens.list(get_all=True)]
    project.deploytokens.delete(made.id)
    member = gl.users.create(
        {"email": "pygone@example.com", "username": "pygone", "name": "Gone", "password": "a-long-password-1"}
    )
    gl.users.delete(member.id, hard_delete=True)
    return {
        "default_branch": {"before": before, "after": after},
        "users": stats.users,
        "topics": [t.name for t in gl.topics.list(get_all=True)],
        "topic_title": gl.topics.get(topic.id).title,
        "project_topics": gl.projects.get(project.id).topics,
        "project_default_branch": gl.projects.get(project.id).default_branch,
        "token": {"prefix": made.token[:5], "username": made.username, "listed": listed, "every": every},
        "after_token_delete": [t.name for t in project.deploytokens.list(get_all=True)],
        "license": raised(lambda: gl.http_get("/license")),
        "deleted_user": raised(lambda: gl.users.get(member.id)),
    }


def scenario_issues_merge_requests():
    gl = client()
    project = gl.projects.create({"name": "py-issues"})
    project.files.create({"file_path": "README.md", "branch": "main", "content": "hi\n", "commit_message": "First"})
    issue = project.issues.create({"title": "Py bug", "labels": ["bug"]})
    issue.description = "Found by python"
    issue.state_event = "close"
    issue.save()
    got = project.issues.get(issue.iid)
    project.branches.create({"branch": "fix", "ref": "main"})
    project.files.create({"file_path": "fix.txt", "branch": "fix", "content": "fixed\n", "commit_message": "Fix"})
    mr = project.mergerequests.create(
        {"source_branch": "fix", "target_branch": "main", "title": "Py fix", "labels": ["bug"]}
    )
    mr.description = "Fixes the bug"
    mr.save()
    listed = [m.title for m in project.mergerequests.list(state="opened", labels=["bug"], get_all=True)]
    changes = [c["new_path"] for c in mr.changes()["changes"]]
    commits = [c.title for c in mr.commits()]
    mr.merge(merge_commit_message="Py merge", should_remove_source_branch=True)
    merged = project.mergerequests.get(mr.iid)
    return {
        "issue": {"iid": got.iid, "state": got.state, "description": got.description, "labels": got.labels},
        "issues": [i.title for i in project.issues.list(state="closed", get_all=True)],
        "mr": {"iid": mr.iid, "id": mr.id},
        "listed": listed,
        "changes": changes,
        "commits": commits,
        "merged": {"state": merged.state, "merged_by": merged.merged_by["username"], "description": merged.description},
        "mine": [m.title for m in gl.mergerequests.list(scope="all", get_all=True)],
        "again": raised(lambda: mr.merge()),
    }


SCENARIOS = {name[len("scenario_"):]: value for name, value in globals().items() if name.startswith("scenario_")}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[1]]()))
