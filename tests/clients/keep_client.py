"""A client of svc as existing cluster clients are written: Google's API client library built
from the served discovery document, blocks written to the service keep_services.accessible
names, a collection made from the returned locators, every block and a file read back.

Usage: python3 keep_client.py <gateway url> <token>. Prints one JSON line of findings."""
import hashlib
import json
import sys
import urllib.request

import httplib2
from googleapiclient.discovery import build_from_document

BASE, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]


class TokenHttp(httplib2.Http):
    def request(self, uri, method="GET", body=None, headers=None, *args, **kwargs):
        headers = dict(headers or {})
        headers["Authorization"] = "OAuth2 " + TOKEN
        return super().request(uri, method, body, headers, *args, **kwargs)


def http(method, url, data=None):
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Authorization": "OAuth2 " + TOKEN})
    with urllib.request.urlopen(req) as res:
        return res.status, res.read()


doc = urllib.request.urlopen(BASE + "/discovery/v1/apis/svc/v1/rest").read().decode()
api = build_from_document(doc, http=TokenHttp())

service = api.keep_services().accessible().execute()["items"][0]
scheme = "https" if service["service_ssl_flag"] else "http"
block_root = "%s://%s:%d" % (scheme, service["service_host"], service["service_port"])

blocks = [b"first block", b"second block data"]
locators = []
for data in blocks:
    status, body = http("PUT", "%s/%s" % (block_root, hashlib.md5(data).hexdigest()), data)
    locators.append(body.decode().strip())

manifest = ". %s 0:%d:a.txt %d:%d:b.txt\n" % (
    " ".join(locators), len(blocks[0]), len(blocks[0]), len(blocks[1]))
made = api.collections().create(body={"collection": {"name": "from python",
                                                     "manifest_text": manifest}}).execute()
got = api.collections().get(uuid=made["uuid"]).execute()

read_back = []
for token in got["manifest_text"].split()[1:3]:
    status, body = http("GET", "%s/%s" % (block_root, token))
    read_back.append([status, hashlib.md5(body).hexdigest()])

status, file_body = http("GET", "%s/c=%s/b.txt" % (BASE, made["uuid"]))
print(json.dumps({
    "service_type": service["service_type"],
    "locators": locators,
    "portable_data_hash": got["portable_data_hash"],
    "signed": got["manifest_text"] != got["unsigned_manifest_text"],
    "read_back": read_back,
    "expected": [hashlib.md5(b).hexdigest() for b in blocks],
    "file": [status, file_body.decode()],
}))
