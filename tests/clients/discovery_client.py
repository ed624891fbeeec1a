"""A discovery-driven client against a live svc cluster, as a new user's SDK would build it.

Builds Google's API client (Debian's python3-googleapi) from the served discovery document and
calls every method of every resource the document lists, with the client's own encoding
(alt=json, JSON-encoded arrays, wrapped bodies, long GETs sent as POST with an override).
Prints one JSON report on stdout; the Jest test that starts the cluster asserts on it.

Environment: SVC_BASE (gateway URL), SVC_TOKEN (root token), SVC_LOGIN (user:password of a
test-provider account).
"""

import json
import os
import sys
import urllib.request

import httplib2
from googleapiclient.discovery import build_from_document
from googleapiclient.errors import HttpError

BASE = os.environ["SVC_BASE"].rstrip("/")
TOKEN = os.environ["SVC_TOKEN"]
LOGIN_USER, LOGIN_PASSWORD = os.environ["SVC_LOGIN"].split(":", 1)


class TokenHttp(httplib2.Http):
    """Adds the token to every request, as SDKs built on this client do."""

    def __init__(self, token):
        super().__init__()
        self.token = token
        self.sent = []

    def request(self, uri, method="GET", body=None, headers=None, **kwargs):
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        self.sent.append({"method": method, "uri": uri[:200], "headers": headers})
        return super().request(uri, method=method, body=body, headers=headers, **kwargs)


def fetch_document():
    with urllib.request.urlopen(BASE + "/discovery/v1/apis/svc/v1/rest") as res:
        return json.loads(res.read())


DOC = fetch_document()
HTTP = TokenHttp(TOKEN)
API = build_from_document(DOC, http=HTTP)
REPORT = {"called": [], "failures": [], "checks": {}}


def fail(method_id, why):
    REPORT["failures"].append({"method": method_id, "why": str(why)[:500]})


def error_body(err):
    """The contract's error shape, parsed by the client from a failed call."""
    body = json.loads(err.content)
    assert isinstance(body.get("errors"), list) and body["errors"], body
    assert isinstance(body.get("error_token"), str), body
    return body


def call(method_id, fn, expect="ok"):
    """Runs one client call; a JSON dict must come back (or, for expect=4xx, an error body)."""
    REPORT["called"].append(method_id)
    try:
        answer = fn().execute()
    except HttpError as err:
        status = err.resp.status
        try:
            body = error_body(err)
        except Exception as parse_err:  # noqa: BLE001 - reported, not raised
            fail(method_id, "%s with a body that is not the error shape: %s" % (status, parse_err))
            return None
        if expect == "ok":
            fail(method_id, "%s %s" % (status, body["errors"]))
        elif expect != "any" and str(status) != expect:
            fail(method_id, "expected %s, got %s %s" % (expect, status, body["errors"]))
        return body
    if expect not in ("ok", "any"):
        fail(method_id, "expected %s, got a success" % expect)
    if not isinstance(answer, dict):
        fail(method_id, "answer is %s, not parsed JSON" % type(answer).__name__)
        return None
    return answer


def minimal_bodies(made):
    """The least each resource needs on create, given the objects made so far."""
    return {
        "users": {"email": "discovery-client@example.com", "username": "discoveryclient"},
        "groups": {"name": "discovery client project", "group_class": "project"},
        "collections": {"name": "discovery client collection", "manifest_text": ""},
        "links": {
            "link_class": "permission",
            "name": "can_read",
            "tail_uuid": made.get("users"),
            "head_uuid": made.get("groups"),
        },
        "workflows": {"name": "discovery client workflow", "definition": "{}"},
        "api_clients": {"name": "discovery client app", "url_prefix": "https://app.example/"},
        "api_client_authorizations": {"owner_uuid": made.get("users")},
        "logs": {"event_type": "discovery-client", "object_uuid": made.get("groups")},
        "container_requests": {
            "name": "discovery client request",
            "state": "Uncommitted",
            "command": ["echo", "hi"],
            "container_image": "d41d8cd98f00b204e9800998ecf8427e+0",
            "cwd": "/",
            "output_path": "/out",
            "mounts": {"/out": {"kind": "tmp", "capacity": 1000}},
            "runtime_constraints": {"ram": 1000000, "vcpus": 1},
        },
        "authorized_keys": {"name": "discovery client key", "key_type": "SSH"},
        "virtual_machines": {"hostname": "shell.discovery.example"},
        "credentials": {
            "name": "discovery client credential",
            "credential_class": "basic_auth",
            "external_id": "discovery",
            "secret": "discovery-secret",
            "expires_at": "2099-01-01T00:00:00Z",
        },
        "keep_services": {"service_host": "keep.discovery.example", "service_port": 25107},
        "containers": {
            "command": ["echo", "hi"],
            "container_image": "d41d8cd98f00b204e9800998ecf8427e+0",
            "cwd": "/",
            "output_path": "/out",
            "mounts": {"/out": {"kind": "tmp", "capacity": 1000}},
            "runtime_constraints": {"ram": 1000000, "vcpus": 1},
        },
    }


def singular_of(resource):
    schema = DOC["resources"][resource]["methods"].get("create", {}).get("request", {})
    keys = list(schema.get("properties", {}).keys())
    return keys[0] if keys else None


def resource_order():
    preferred = ["users", "groups", "collections", "links", "workflows", "api_clients",
                 "api_client_authorizations", "logs", "container_requests", "containers"]
    names = list(DOC["resources"].keys())
    return [n for n in preferred if n in names] + [n for n in names if n not in preferred]


def methods_of(resource):
    return DOC["resources"][resource]["methods"]


# Resources whose standard methods are not ordinary objects' (called in SPECIAL_STANDARD).
SPECIAL_STANDARD = {
    # User agreements are managed as collections and links: writes answer 422.
    "user_agreements": lambda api, made: [
        call("svc.user_agreements.list", lambda: api.user_agreements().list()),
        call("svc.user_agreements.get", lambda: api.user_agreements().get(
            uuid=made.get("collections")), expect="any"),
        call("svc.user_agreements.create", lambda: api.user_agreements().create(
            body={"user_agreement": {}}), expect="422"),
        call("svc.user_agreements.update", lambda: api.user_agreements().update(
            uuid=made.get("collections"), body={"user_agreement": {}}), expect="422"),
        call("svc.user_agreements.delete", lambda: api.user_agreements().delete(
            uuid=made.get("collections")), expect="422"),
    ],
    # The trash-sweep trigger: its method key is `get`, its id svc.sys.trash_sweep; 204, no body.
    "sys": lambda api, made: call("svc.sys.trash_sweep", lambda: api.sys().get()),
    # Rows of the permission table: no created_at to order by.
    "computed_permissions": lambda api, made: call(
        "svc.computed_permissions.list", lambda: api.computed_permissions().list(limit=2)),
}


def standard_calls(resource, made):
    """create, get, update and list of one resource (delete comes last, after the others)."""
    if resource in SPECIAL_STANDARD:
        SPECIAL_STANDARD[resource](API, made)
        return
    res = getattr(API, resource)()
    methods = methods_of(resource)
    if "create" in methods:
        singular = singular_of(resource)
        body = {singular: minimal_bodies(made).get(resource, {})}
        created = call("svc.%s.create" % resource, lambda: res.create(body=body))
        if created and "uuid" in created:
            made[resource] = created["uuid"]
    if "list" in methods:
        listed = call("svc.%s.list" % resource, lambda: res.list(
            limit=2, order=json.dumps(["created_at desc"]), select=json.dumps(["uuid", "kind"])))
        if listed is not None and not isinstance(listed.get("items"), list):
            fail("svc.%s.list" % resource, "no items array: %s" % listed)
        elif listed and listed["items"] and resource not in made:
            made[resource] = listed["items"][0]["uuid"]
    if "get" in methods and "uuid" not in methods["get"]["parameterOrder"]:
        got = call("svc.%s.get" % resource, lambda: res.get())  # configs.get: no uuid
        if got is not None and not got:
            fail("svc.%s.get" % resource, "empty answer")
    elif "get" in methods and resource in made:
        got = call("svc.%s.get" % resource, lambda: res.get(uuid=made[resource]))
        if got is not None and got.get("uuid") != made[resource]:
            fail("svc.%s.get" % resource, "wrong object: %s" % got.get("uuid"))
    if "update" in methods and resource in made:
        singular = singular_of(resource)
        call("svc.%s.update" % resource,
             lambda: res.update(uuid=made[resource], body={singular: {}}))


SPECIAL = {
    "svc.users.authenticate": lambda api, made: api.users().authenticate(
        body={"username": LOGIN_USER, "password": LOGIN_PASSWORD}),
    "svc.groups.contents": lambda api, made: api.groups().contents(
        uuid=made.get("groups"), limit=5),
    "svc.groups.shared": lambda api, made: api.groups().shared(limit=5),
    "svc.groups.trash": lambda api, made: api.groups().trash(uuid=made.get("groups")),
    "svc.groups.untrash": lambda api, made: api.groups().untrash(uuid=made.get("groups")),
    "svc.collections.trash": lambda api, made: api.collections().trash(
        uuid=made.get("collections")),
    "svc.collections.untrash": lambda api, made: api.collections().untrash(
        uuid=made.get("collections")),
    "svc.users.merge": lambda api, made: api.users().merge(
        new_owner_uuid=made.get("users"), old_user_uuid=made.get("users"),
        new_user_uuid=made.get("users")),
    "svc.users.setup": lambda api, made: api.users().setup(uuid=made.get("users")),
    "svc.user_agreements.sign": lambda api, made: api.user_agreements().sign(
        uuid=made.get("collections")),
    # A user of its own: unsetup takes away the tokens and links other calls still use.
    "svc.users.unsetup": lambda api, made: api.users().unsetup(uuid=api.users().create(
        body={"user": {"email": "unsetup@example.com"}}).execute()["uuid"]),
}

# Special calls whose answer is a refusal by design (a parsed error body is what is checked).
REFUSED = {"svc.users.merge", "svc.user_agreements.sign"}


def extra_calls(resource, made):
    """Every other method the document lists; unknown ones are called generically."""
    for name, method in methods_of(resource).items():
        if name in ("create", "get", "update", "list", "delete"):
            continue
        method_id = method["id"]
        if method_id in SPECIAL:
            expect = "422" if method_id in REFUSED else "ok"
            call(method_id, lambda: SPECIAL[method_id](API, made), expect=expect)
            continue
        kwargs = {}
        if "uuid" in method.get("parameterOrder", []):
            kwargs["uuid"] = made.get(resource, "zzzzz-zzzzz-zzzzzzzzzzzzzzz")
        fn = getattr(getattr(API, resource)(), name)
        # Methods this walker has no fixture for: a parsed answer, success or error, will do.
        call(method_id, lambda: fn(**kwargs), expect="any")


def delete_calls(made):
    for resource in reversed(resource_order()):
        if resource in SPECIAL_STANDARD:
            continue
        if "delete" in methods_of(resource) and resource in made:
            res = getattr(API, resource)()
            call("svc.%s.delete" % resource, lambda: res.delete(uuid=made[resource]))


def error_checks():
    missing = "%s-4zz18-000000000000000" % DOC["uuidPrefix"]
    body = call("svc.collections.get", lambda: API.collections().get(uuid=missing), expect="404")
    REPORT["checks"]["404"] = body["errors"] if body else None
    body = call("svc.collections.list", lambda: API.collections().list(
        filters=json.dumps([["no_such_attribute", "=", "x"]])), expect="422")
    REPORT["checks"]["422"] = body["errors"] if body else None


def long_get_check():
    """A list whose URL is too long goes out as POST + X-HTTP-Method-Override: GET."""
    coll = API.collections()
    wanted = [coll.create(body={"collection": {"name": "long get %d" % i}}).execute()["uuid"]
              for i in range(3)]
    prefix = DOC["uuidPrefix"]
    filler = ["%s-4zz18-%015d" % (prefix, i) for i in range(3000)]
    before = len(HTTP.sent)
    answer = coll.list(filters=json.dumps([["uuid", "in", filler + wanted]]),
                       select=json.dumps(["uuid"]), limit=10).execute()
    sent = HTTP.sent[before]
    REPORT["checks"]["long_get"] = {
        "method": sent["method"],
        "override": sent["headers"].get("x-http-method-override"),
        "uuids": sorted(item["uuid"] for item in answer["items"]),
        "wanted": sorted(wanted),
        "filter_size": len(filler) + len(wanted),
    }


def main():
    made = {}
    for resource in resource_order():
        standard_calls(resource, made)
    for resource in resource_order():
        extra_calls(resource, made)
    delete_calls(made)
    error_checks()
    long_get_check()
    REPORT["listed"] = sorted(m["id"] for r in DOC["resources"].values()
                              for m in r["methods"].values())
    json.dump(REPORT, sys.stdout)


main()
